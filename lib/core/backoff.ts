/**
 * The one exponential backoff of the app: the journal's retries, the long
 * connection's restarts and the Task Cards' retry pauses are each a choice
 * of its options. Pure.
 * @module
 */

/** Options of {@link exponentialDelay}. */
export interface ExponentialDelayOptions {
  /** The delay of attempt 1, in ms. */
  baseMs: number;
  /** The cap of the exponential delay, in ms. */
  maxMs: number;
  /** Growth per attempt, at least 1 (default 2). */
  factor?: number;
  /** A floor applied after the cap (a delay never shorter than this), in ms. */
  minMs?: number;
  /**
   * When set, the delay is jittered into [½, 1] of itself so clients spread
   * out and the wait never collapses to zero; returns a number in [0, 1).
   */
  random?: () => number;
}

/**
 * The delay before attempt number `attempt` (1-based): `baseMs * factor^(attempt - 1)`
 * capped at `maxMs`, raised to `minMs`, then jittered when `random` is given.
 * An attempt below 1 waits nothing.
 *
 * @example
 * ```ts
 * import { exponentialDelay } from "./backoff.ts";
 * const d = [1, 2, 3, 12].map((n) => exponentialDelay(n, { baseMs: 100, maxMs: 1000 }));
 * if (d.join() !== "100,200,400,1000") throw new Error(d.join());
 * if (exponentialDelay(0, { baseMs: 100, maxMs: 1000 }) !== 0) throw new Error();
 * const jittered = exponentialDelay(3, { baseMs: 1000, maxMs: 60_000, random: () => 0 });
 * if (jittered !== 2000) throw new Error(String(jittered));
 * const floored = exponentialDelay(1, { baseMs: 1000, maxMs: 60_000, minMs: 300_000 });
 * if (floored !== 300_000) throw new Error(String(floored));
 * ```
 */
export function exponentialDelay(attempt: number, options: ExponentialDelayOptions): number {
  if (!(attempt >= 1)) return 0;
  const factor = options.factor ?? 2;
  let delay = options.baseMs;
  // Step by step: the cap stops the growth long before a float overflows.
  for (let n = 1; n < attempt && delay > 0 && delay < options.maxMs && factor > 1; n++) {
    delay *= factor;
  }
  delay = Math.max(options.minMs ?? 0, Math.min(options.maxMs, delay));
  return options.random ? delay * (0.5 + 0.5 * options.random()) : delay;
}
