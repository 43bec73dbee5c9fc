/**
 * Inbound, in flow order: `intake` (the WS handler's single durable write),
 * then in the per-chat worker (`pipeline`): `admission` → local-command seam →
 * presence → `normalise` → `attachments` → `voice` (transcription) → record
 * → notify. Also the bot `identity`, sender `names` and gap `backfill`.
 * @module
 */

export * from "./intake.ts";
export * from "./admission.ts";
export * from "./normalise/mod.ts";
export * from "./attachments/mod.ts";
export * from "./voice.ts";
export * from "./events.ts";
export * from "./pipeline.ts";
export * from "./backfill.ts";
export * from "./runtime.ts";
