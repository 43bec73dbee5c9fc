/**
 * Yielding to I/O between units of background work.
 * @module
 */

import { setImmediate } from "node:timers";

/**
 * Resolves after the event loop has polled for I/O once. A chain of awaits
 * whose promises are already settled runs as microtasks without ever letting
 * the loop read a socket: many chats' workers draining at once could keep a
 * WS frame (and its ACK) waiting for tens of milliseconds. `setImmediate`
 * runs after the poll phase, so a frame that arrived meanwhile goes first.
 *
 * @example
 * ```ts
 * import { yieldToIO } from "./yield.ts";
 * let ran = false;
 * setTimeout(() => ran = true, 0);
 * for (let i = 0; i < 5 && !ran; i++) await yieldToIO();
 * ```
 */
export function yieldToIO(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
