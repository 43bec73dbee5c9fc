/**
 * The long connection: the `pbbp2.Frame` codec, one session per socket,
 * event delivery (cluster mode, queueing, fragments, ACK matching,
 * redelivery) and the hub that serves discovery and the `/ws/v2` upgrade.
 * @module
 */

export * from "./pbbp2.ts";
export * from "./session.ts";
export * from "./delivery.ts";
export * from "./hub.ts";
