/**
 * The liveness watchdog of the long connection: a loop on the injected clock
 * that wakes once per ping interval, and the pure rule that says when a
 * connection has been silent for too long (no frame — pong or data — for more
 * than `silentPings` ping intervals).
 * @module
 */

import type { Clock } from "../../core/mod.ts";

/** What the silence rule looks at (ms; times on the injected clock). */
export interface SilenceInput {
  now: number;
  /** When the current connection came up. */
  connectedAt: number;
  /** Last inbound frame, if any. */
  lastFrameAt: number | null;
  intervalMs: number;
  silentPings: number;
}

/**
 * How long the connection has been silent, when that is more than
 * `silentPings` ping intervals; otherwise null.
 *
 * @example
 * ```ts
 * import { tooSilent } from "./watchdog.ts";
 * const base = { connectedAt: 0, intervalMs: 1_000, silentPings: 3 };
 * if (tooSilent({ ...base, now: 3_000, lastFrameAt: null }) !== null) throw new Error();
 * if (tooSilent({ ...base, now: 3_001, lastFrameAt: null }) !== 3_001) throw new Error();
 * if (tooSilent({ ...base, now: 5_000, lastFrameAt: 4_000 }) !== null) throw new Error();
 * ```
 */
export function tooSilent(input: SilenceInput): number | null {
  const silentMs = input.now - Math.max(input.connectedAt, input.lastFrameAt ?? 0);
  return silentMs > input.silentPings * input.intervalMs ? silentMs : null;
}

/**
 * Calls `tick(intervalMs)` after every ping interval (re-read each round, as
 * pongs may change it) until `signal` aborts.
 */
export async function everyPingInterval(options: {
  clock: Clock;
  signal: AbortSignal;
  intervalMs(): number;
  tick(intervalMs: number): void;
}): Promise<void> {
  while (!options.signal.aborted) {
    const interval = options.intervalMs();
    try {
      await options.clock.sleep(interval, options.signal);
    } catch {
      return; // the signal aborted the sleep: the connection is closed
    }
    options.tick(interval);
  }
}
