/**
 * The inbound pure stages, in flow order. The lead's worker drains a chat's
 * FIFO and calls them: intake (lib/feishu + store) → {@link admitMessage} →
 * local commands → {@link shouldReact} (OK / Typing) → {@link normaliseMessage}
 * → {@link downloadAttachments} → transcription (`./transcribe/`) → record
 * write → notification (`lib/notify/`). Passive events take
 * {@link admitPassiveEvent} → {@link buildEventRecord} and never notify.
 * History backfill rebuilds envelopes with {@link envelopeFromHistoryItem}.
 * @module
 */

export * from "./admission.ts";
export * from "./normalise/mod.ts";
export * from "./attachments/mod.ts";
export * from "./events.ts";
