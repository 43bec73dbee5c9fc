/**
 * Core building blocks shared by every capability: the error type and failure
 * shape, the clock, the redacting stderr logger, compound ids, code-point text
 * helpers, atomic file writes, and workers that also run from the bundle.
 * Pure or edge-free; imports nothing else.
 * @module
 */

export * from "./errors.ts";
export * from "./clock.ts";
export * from "./log.ts";
export * from "./ids.ts";
export * from "./text.ts";
export * from "./fs.ts";
export * from "./json.ts";
export * from "./deps.ts";
export * from "./worker.ts";
export * from "./names.ts";
