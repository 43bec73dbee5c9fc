/**
 * A fixed number of slots handed out first come, first served: the journal's
 * bound on handlers running at once across every chat. A released slot goes
 * straight to the oldest waiter, so a chat that queued early is never
 * overtaken by one that asks later, and a chat with many entries queues again
 * behind the others after each of them.
 * @module
 */

interface Waiter {
  grant(): void;
  drop(reason: unknown): void;
}

/**
 * The slot pool.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Slots } from "./_slots.ts";
 * const slots = new Slots(1);
 * const stop = new AbortController();
 * const first = await slots.acquire(stop.signal);
 * const second = slots.acquire(stop.signal);
 * assert.equal(slots.waiting, 1);
 * first();
 * (await second)();
 * assert.deepEqual([slots.free, slots.waiting], [1, 0]);
 * ```
 */
export class Slots {
  #free: number;
  // A Set keeps insertion order and deletes an aborted waiter in O(1).
  readonly #waiters = new Set<Waiter>();

  constructor(size: number) {
    this.#free = size;
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
   * caller got theirs. Rejects with `signal.reason` if `signal` aborts first
   * (nothing is held then). Call the release exactly once; later calls do
   * nothing.
   */
  acquire(signal: AbortSignal): Promise<() => void> {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.#free > 0 && this.#waiters.size === 0) {
      this.#free--;
      return Promise.resolve(this.#release());
    }
    return new Promise((resolve, reject) => {
      const onAbort = () => waiter.drop(signal.reason);
      const waiter: Waiter = {
        grant: () => {
          signal.removeEventListener("abort", onAbort);
          resolve(this.#release());
        },
        drop: (reason) => {
          this.#waiters.delete(waiter);
          reject(reason);
        },
      };
      this.#waiters.add(waiter);
      signal.addEventListener("abort", onAbort, { once: true });
    });
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
      next.value.grant();
    };
  }
}
