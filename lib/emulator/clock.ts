/**
 * The emulator's own clock: every timer it starts (ACK redelivery, fault
 * delays, waits) runs on an {@linkcode EmuClock}, so a test can drive time with
 * {@linkcode ManualEmuClock.advance} instead of sleeping.
 * @module
 */

/** An opaque timer handle returned by {@linkcode EmuClock.setTimer}. */
export type TimerId = number;

/** Time and timers, injectable. */
export interface EmuClock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Runs `fn` once after `ms` milliseconds of this clock's time. */
  setTimer(ms: number, fn: () => void): TimerId;
  /** Cancels a timer; unknown or fired ids are ignored. */
  clearTimer(id: TimerId): void;
  /** Cancels every pending timer (used by `close()`). */
  clearAll(): void;
  /** How many timers are pending. */
  pending(): number;
}

/**
 * Wall-clock time backed by `setTimeout`; remembers its timers so
 * `clearAll()` leaves nothing behind for Deno's sanitizers.
 *
 * @example
 * ```ts
 * import { RealEmuClock } from "./clock.ts";
 * const clock = new RealEmuClock();
 * const id = clock.setTimer(10_000, () => {});
 * clock.clearTimer(id);
 * if (clock.pending() !== 0) throw new Error("timer left behind");
 * ```
 */
export class RealEmuClock implements EmuClock {
  #timers = new Map<TimerId, ReturnType<typeof setTimeout>>();
  #next = 1;

  /** Milliseconds since the epoch, from `Date.now()`. */
  now(): number {
    return Date.now();
  }

  /** Schedules `fn` with `setTimeout`. */
  setTimer(ms: number, fn: () => void): TimerId {
    const id = this.#next++;
    const handle = setTimeout(() => {
      this.#timers.delete(id);
      fn();
    }, Math.max(0, ms));
    this.#timers.set(id, handle);
    return id;
  }

  /** Cancels one timer. */
  clearTimer(id: TimerId): void {
    const handle = this.#timers.get(id);
    if (handle === undefined) return;
    clearTimeout(handle);
    this.#timers.delete(id);
  }

  /** Cancels every timer. */
  clearAll(): void {
    for (const handle of this.#timers.values()) clearTimeout(handle);
    this.#timers.clear();
  }

  /** Number of pending timers. */
  pending(): number {
    return this.#timers.size;
  }
}

interface ManualTimer {
  id: TimerId;
  at: number;
  fn: () => void;
}

/**
 * A clock that moves only when told to. `advance(ms)` fires due timers in
 * deadline order (ties in creation order), setting `now()` to each deadline
 * before its callback runs; timers created by a callback fire in the same
 * `advance` when they fall due.
 *
 * @example
 * ```ts
 * import { ManualEmuClock } from "./clock.ts";
 * const clock = new ManualEmuClock(1000);
 * const seen: number[] = [];
 * clock.setTimer(20, () => seen.push(clock.now()));
 * clock.setTimer(10, () => seen.push(clock.now()));
 * clock.advance(25);
 * if (seen.join() !== "1010,1020" || clock.now() !== 1025) throw new Error(seen.join());
 * ```
 */
export class ManualEmuClock implements EmuClock {
  #now: number;
  #timers: ManualTimer[] = [];
  #next = 1;

  /** Starts at `start` ms since the epoch. */
  constructor(start = 1_735_700_000_000) {
    this.#now = start;
  }

  /** The current manual time. */
  now(): number {
    return this.#now;
  }

  /** Schedules `fn` at `now() + ms`. */
  setTimer(ms: number, fn: () => void): TimerId {
    const id = this.#next++;
    this.#timers.push({ id, at: this.#now + Math.max(0, ms), fn });
    return id;
  }

  /** Cancels one timer. */
  clearTimer(id: TimerId): void {
    this.#timers = this.#timers.filter((t) => t.id !== id);
  }

  /** Cancels every timer. */
  clearAll(): void {
    this.#timers = [];
  }

  /** Number of pending timers. */
  pending(): number {
    return this.#timers.length;
  }

  /** Moves time forward by `ms`, firing every timer that falls due. */
  advance(ms: number): void {
    const target = this.#now + ms;
    for (;;) {
      const due = this.#earliestDue(target);
      if (!due) break;
      this.#timers = this.#timers.filter((t) => t !== due);
      this.#now = due.at;
      due.fn();
    }
    this.#now = target;
  }

  #earliestDue(target: number): ManualTimer | undefined {
    let best: ManualTimer | undefined;
    for (const t of this.#timers) {
      if (t.at > target) continue;
      if (!best || t.at < best.at || (t.at === best.at && t.id < best.id)) best = t;
    }
    return best;
  }
}
