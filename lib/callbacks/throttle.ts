/**
 * How often one user's business clicks may wake the agent: at most
 * {@link CLICK_WAKES_PER_WINDOW} in any {@link CLICK_WINDOW_MS} (a sliding
 * window over the clicks' own times, as Feishu stamps them). A click over
 * the limit is still recorded — the agent reads it with the conversation —
 * but wakes no one and does not count toward the window, so a user who
 * keeps clicking gets a wake again as soon as their older wakes age out.
 * In memory: a restart starts every window afresh.
 * @module
 */

/** Business clicks of one user that wake the agent per window. */
export const CLICK_WAKES_PER_WINDOW = 10;
/** The window, in ms. */
export const CLICK_WINDOW_MS = 60_000;
/** Users remembered at once; beyond this, idle ones are forgotten first. */
export const THROTTLE_MAX_USERS = 10_000;

/** One account's or the whole process's click throttle. */
export interface ClickThrottle {
  /** Whether a click by `key` at `atMs` would wake the agent (counts nothing). */
  peek(key: string, atMs: number): boolean;
  /** Counts a click by `key` at `atMs` when it may wake the agent; false when over the limit. */
  take(key: string, atMs: number): boolean;
}

/**
 * A sliding-window throttle.
 *
 * @example
 * ```ts
 * import { createClickThrottle } from "./throttle.ts";
 * const t = createClickThrottle({ limit: 2, windowMs: 1000 });
 * const taken = [0, 1, 2, 1000, 1001].map((at) => t.take("ou_a", at));
 * if (taken.join() !== "true,true,false,true,true") throw new Error(taken.join());
 * if (!t.take("ou_b", 2)) throw new Error("another user has a window of their own");
 * ```
 */
export function createClickThrottle(
  options: { limit?: number; windowMs?: number; maxUsers?: number } = {},
): ClickThrottle {
  const limit = options.limit ?? CLICK_WAKES_PER_WINDOW;
  const windowMs = options.windowMs ?? CLICK_WINDOW_MS;
  const maxUsers = options.maxUsers ?? THROTTLE_MAX_USERS;
  const wakes = new Map<string, number[]>();

  /** The wakes of `key` still inside the window that ends at `atMs`. */
  const recent = (key: string, atMs: number): number[] => {
    const kept = (wakes.get(key) ?? []).filter((t) => t > atMs - windowMs);
    if (kept.length) wakes.set(key, kept);
    else wakes.delete(key);
    return kept;
  };

  const forgetIdle = (atMs: number) => {
    for (const key of [...wakes.keys()]) {
      if (wakes.size < maxUsers) return;
      recent(key, atMs); // forgets the key when none of its wakes is recent
    }
    // Everyone is active: forget the longest-known users first.
    for (const key of wakes.keys()) {
      if (wakes.size < maxUsers) return;
      wakes.delete(key);
    }
  };

  return {
    peek: (key, atMs) => recent(key, atMs).length < limit,
    take(key, atMs) {
      const kept = recent(key, atMs);
      if (kept.length >= limit) return false;
      if (!wakes.has(key)) forgetIdle(atMs);
      kept.push(atMs);
      wakes.set(key, kept);
      return true;
    },
  };
}
