/**
 * The long connection: the `pbbp2.Frame` codec, one session per socket,
 * event delivery (cluster mode, queueing, fragments, `event`/`card`
 * frames, ACK matching, redelivery, callback timeouts) and the hub that serves discovery and the `/ws/v2` upgrade.
 * @module
 */

export { decodeFrame, encodeFrame, type Frame } from "./pbbp2.ts";
export type { Ack } from "./session.ts";
export type { EventRecord, PushOptions } from "./delivery.ts";
export { type EndpointRefusal, type SessionStatus, type UpgradeRefusal, WsHub } from "./hub.ts";
