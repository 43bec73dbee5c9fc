/**
 * Normalisation, the inbound stage after admission: one converter per Feishu
 * `message_type` behind a registry with an explicit fallback, mentions
 * resolved once, and the inbound record built from a raw
 * `im.message.receive_v1` envelope. History items are rebuilt into the same
 * envelope shape so backfill takes the same path.
 * @module
 */

export { isMentionAll, readMessage } from "./envelope.ts";
export { type NormalisedMessage, normaliseMessage, normaliseUnreadable } from "./normalise.ts";
export { envelopeFromHistoryItem } from "./history.ts";
