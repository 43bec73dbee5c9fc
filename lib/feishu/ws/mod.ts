/**
 * The long connection: the node-sdk `WSClient` of one account, wrapped so no
 * frame is lost between `open` and the SDK's listener, events reach the
 * product as raw v2 envelopes (the handler's value is the ACK), silence and
 * SDK give-ups lead to a restart that never stops trying, and `status()`
 * reports the real state. It is the first stage of the inbound flow: WS frame
 * → `onEvent` (intake's durable write) → ACK.
 * @module
 */

export { startLongConnection } from "./connection.ts";
export type {
  LongConnection,
  LongConnectionOptions,
  LongConnectionStatus,
  RawEnvelope,
} from "./types.ts";
