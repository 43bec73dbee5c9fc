/**
 * Time as a dependency: production code never calls `Date.now()` or
 * `setTimeout` directly, so tests can control time.
 * @module
 */

/** A source of time and a cancellable wait. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`, or rejects with the signal's reason when aborted. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/**
 * The real clock.
 *
 * @example
 * ```ts
 * import { systemClock } from "./clock.ts";
 * if (systemClock.now() <= 0) throw new Error();
 * ```
 */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
    }),
};

/**
 * A clock that only moves when told to; `sleep` resolves when `advance` passes
 * its deadline.
 *
 * @example
 * ```ts
 * import { ManualClock } from "./clock.ts";
 * const c = new ManualClock(1000);
 * const p = c.sleep(50);
 * c.advance(50);
 * await p;
 * if (c.now() !== 1050) throw new Error();
 * ```
 */
export class ManualClock implements Clock {
  #now: number;
  #waiters: { at: number; resolve: () => void }[] = [];

  constructor(start = 0) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const waiter = { at: this.#now + ms, resolve };
      this.#waiters.push(waiter);
      signal?.addEventListener("abort", () => {
        this.#waiters = this.#waiters.filter((w) => w !== waiter);
        reject(signal.reason);
      }, { once: true });
    });
  }

  /** Number of sleeps waiting on this clock (lets tests wait for a timer to be armed). */
  pendingSleeps(): number {
    return this.#waiters.length;
  }

  /** How long until each pending sleep wakes, soonest first. */
  pendingDelays(): number[] {
    return this.#waiters.map((w) => w.at - this.#now).sort((a, b) => a - b);
  }

  /** Moves time forward and wakes every sleeper whose deadline has passed. */
  advance(ms: number): void {
    this.#now += ms;
    const due = this.#waiters.filter((w) => w.at <= this.#now);
    this.#waiters = this.#waiters.filter((w) => w.at > this.#now);
    for (const w of due) w.resolve();
  }
}
