/**
 * The embedded web chat page (placeholder until the page lands).
 * @module
 */

export * from "./assets.ts";
