/**
 * The retry delay of a failed entry: bounded exponential.
 * @module
 */

import type { BackoffOptions } from "./types.ts";

/** Default delay after the first failure. */
export const DEFAULT_BACKOFF_BASE_MS = 1000;
/** Default upper bound of a delay. */
export const DEFAULT_BACKOFF_MAX_MS = 300_000;

/**
 * Delay before the run after the `failures`-th failure: `base * 2^(failures-1)`,
 * at most `max`.
 *
 * @example
 * ```ts
 * import { backoffDelay } from "./_backoff.ts";
 * const d = [1, 2, 3, 12].map((n) => backoffDelay(n, { baseMs: 100, maxMs: 1000 }));
 * if (d.join() !== "100,200,400,1000") throw new Error(d.join());
 * ```
 */
export function backoffDelay(failures: number, options: BackoffOptions = {}): number {
  const base = options.baseMs ?? DEFAULT_BACKOFF_BASE_MS;
  const max = options.maxMs ?? DEFAULT_BACKOFF_MAX_MS;
  if (failures < 1) return 0;
  return Math.min(max, base * 2 ** Math.min(failures - 1, 52));
}
