/**
 * Inbound, in flow order: `intake` (the WS handler's single durable write),
 * then in the per-chat worker (`pipeline`): `admission` → local-command seam →
 * presence → `normalise` → `attachments` → `voice` (transcription) → record
 * → notify. Also the bot `identity`, sender `names` and gap `backfill`.
 * @module
 */

export type { IntakeCounters } from "./intake.ts";
export { normaliseMessage } from "./normalise/mod.ts";
export type { InboundSeams, PipelineCounters } from "./pipeline.ts";
export { type BackfillStatus, type InboundRuntime, openInbound } from "./runtime.ts";
