/**
 * Inbound, in flow order: `intake` (the WS handler's single durable write),
 * then in the per-chat worker (`pipeline`): `admission` → local-command seam →
 * presence → `normalise` → `related` (forwards, quoted parents) →
 * `attachments` → `voice` (transcription) → the conversation log (record,
 * wake, listeners). `events` turns passive events into records of the
 * `events` conversation; `backfill` fetches what a connection gap missed;
 * `runtime` opens all of it and starts it once the listeners are in place.
 * @module
 */

export type { IntakeCounters } from "./intake.ts";
export { normaliseMessage } from "./normalise/mod.ts";
export type { InboundSeams, PipelineCounters } from "./pipeline.ts";
export { type BackfillStatus, type InboundRuntime, openInbound } from "./runtime.ts";
export type { StorageView } from "./storage_watch.ts";
