/**
 * A fixed number of slots handed out first come, first served: the journal's
 * bound on handlers running at once across every chat. A released slot goes
 * straight to the oldest waiter, so a chat that queued early is never
 * overtaken by one that asks later, and a chat with many entries queues again
 * behind the others after each of them.
 * @module
 */

interface Waiter {
  resolve(release: () => void): void;
  reject(reason: unknown): void;
}

/**
 * The slot pool.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Slots } from "./_slots.ts";
 * const stop = new AbortController();
 * const slots = new Slots(1, stop.signal);
 * const first = await slots.acquire();
 * const second = slots.acquire();
 * assert.equal(slots.waiting, 1);
 * first();
 * (await second)();
 * assert.deepEqual([slots.free, slots.waiting], [1, 0]);
 * ```
 */
export class Slots {
  #free: number;
  readonly #signal: AbortSignal;
  // A Set keeps insertion order and takes the oldest waiter out in O(1).
  readonly #waiters = new Set<Waiter>();

  /** `signal` ends every wait, now and later (the journal closing). */
  constructor(size: number, signal: AbortSignal) {
    this.#free = size;
    this.#signal = signal;
    // One listener for the pool, not one per waiter: adding and removing a
    // listener scans the signal's list, which thousands of waiters make slow.
    signal.addEventListener("abort", () => {
      const waiters = [...this.#waiters];
      this.#waiters.clear();
      for (const w of waiters) w.reject(signal.reason);
    }, { once: true });
  }

  /** Slots nobody holds. */
  get free(): number {
    return this.#free;
  }

  /** Callers waiting for a slot. */
  get waiting(): number {
    return this.#waiters.size;
  }

  /**
   * Resolves with the release of a slot once one is free and every earlier
   * caller got theirs. Rejects with the signal's reason once it aborted
   * (nothing is held then). Call the release exactly once; later calls do
   * nothing.
   */
  acquire(): Promise<() => void> {
    if (this.#signal.aborted) return Promise.reject(this.#signal.reason);
    if (this.#free > 0 && this.#waiters.size === 0) {
      this.#free--;
      return Promise.resolve(this.#release());
    }
    return new Promise((resolve, reject) => this.#waiters.add({ resolve, reject }));
  }

  #release(): () => void {
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      const next = this.#waiters.values().next();
      if (next.done) {
        this.#free++;
        return;
      }
      // The slot passes on without ever being free: no later caller can take it first.
      this.#waiters.delete(next.value);
      next.value.resolve(this.#release());
    };
  }
}
