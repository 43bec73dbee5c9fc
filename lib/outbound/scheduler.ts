/**
 * Outbound pacing (field notes §4.1: 5 messages/s per user or group, an
 * app-wide per-second tier). Every wire call waits for a slot: within
 * `perChatPerSecond` for its conversation and `appPerSecond` for the app,
 * over a rolling window, and after any "blocked until" hint a `RATE_LIMITED`
 * answer gave. Nothing is dropped or reordered: one logical message holds its
 * conversation until its last chunk is out, messages to one conversation go in
 * call order, and different conversations proceed in parallel.
 *
 * Time comes from an injected `Clock`; every wait takes an `AbortSignal`.
 * @module
 */

import type { Clock } from "../core/mod.ts";

/** Options of {@link OutboundScheduler}. */
export interface SchedulerOptions {
  clock: Clock;
  /** Sends per rolling window to one conversation (default 5). */
  perChatPerSecond?: number;
  /** Sends per rolling window for the whole app (default 50). */
  appPerSecond?: number;
  /** The rolling window in milliseconds (default 1000). */
  windowMs?: number;
}

/** Waits for the next slot of the running message; await it before each wire call. */
export type Slot = (signal?: AbortSignal) => Promise<void>;

/** The last `max` event times of one rate scope. */
class RateWindow {
  readonly #max: number;
  readonly #ms: number;
  readonly #times: number[] = [];
  blockedUntil = 0;

  constructor(max: number, ms: number) {
    this.#max = max;
    this.#ms = ms;
  }

  /** The earliest time one more event keeps every rolling window within `max`. */
  readyAt(now: number): number {
    const ready = this.#times.length < this.#max ? now : this.#times[0]! + this.#ms;
    return Math.max(now, ready, this.blockedUntil);
  }

  record(t: number): void {
    this.#times.push(t);
    if (this.#times.length > this.#max) this.#times.shift();
  }

  /** Whether the window no longer constrains anything at `now`. */
  idle(now: number): boolean {
    const last = this.#times.at(-1);
    return (last === undefined || last + this.#ms <= now) && this.blockedUntil <= now;
  }
}

interface Waiter {
  resolve(): void;
  reject(reason: unknown): void;
}

/** One conversation: its rate window and the messages waiting for it. */
interface Lane {
  window: RateWindow;
  busy: boolean;
  waiters: Waiter[];
}

/** Lanes kept before idle ones are swept. */
const SWEEP_ABOVE = 256;

/**
 * The per-conversation pacing scheduler.
 *
 * @example Run one two-chunk message
 * ```ts
 * import { ManualClock } from "../core/mod.ts";
 * import { OutboundScheduler } from "./scheduler.ts";
 * const scheduler = new OutboundScheduler({ clock: new ManualClock(0) });
 * const sent: string[] = [];
 * await scheduler.run("oc_1", async (slot) => {
 *   for (const chunk of ["a", "b"]) {
 *     await slot();
 *     sent.push(chunk);
 *   }
 * });
 * if (sent.join() !== "a,b") throw new Error();
 * ```
 */
export class OutboundScheduler {
  readonly #clock: Clock;
  readonly #perChat: number;
  readonly #ms: number;
  readonly #app: RateWindow;
  readonly #lanes = new Map<string, Lane>();
  readonly #closing = new AbortController();

  constructor(options: SchedulerOptions) {
    this.#clock = options.clock;
    this.#perChat = positive("perChatPerSecond", options.perChatPerSecond ?? 5, true);
    this.#ms = positive("windowMs", options.windowMs ?? 1000, false);
    this.#app = new RateWindow(
      positive("appPerSecond", options.appPerSecond ?? 50, true),
      this.#ms,
    );
  }

  /**
   * Runs one logical message for conversation `key` (a chat id, or a user's
   * open id for p2p sends by user): waits until earlier messages to `key` are
   * done, then calls `fn` with the {@link Slot} to await before each chunk.
   */
  async run<T>(
    key: string,
    fn: (slot: Slot) => Promise<T>,
    options: { signal?: AbortSignal } = {},
  ): Promise<T> {
    const signal = options.signal === undefined
      ? this.#closing.signal
      : AbortSignal.any([options.signal, this.#closing.signal]);
    signal.throwIfAborted();
    const lane = this.#lane(key);
    await this.#acquire(lane, signal);
    try {
      return await fn((s) =>
        this.#slot(lane, s === undefined ? signal : AbortSignal.any([s, signal]))
      );
    } finally {
      this.#release(lane);
    }
  }

  /**
   * Honours a "retry after" hint: no send to `key` (or, without a key, to any
   * conversation) before `seconds` from now.
   */
  blockFor(seconds: number, options: { key?: string } = {}): void {
    if (!Number.isFinite(seconds) || seconds <= 0) return;
    const until = this.#clock.now() + seconds * 1000;
    const window = options.key === undefined ? this.#app : this.#lane(options.key).window;
    window.blockedUntil = Math.max(window.blockedUntil, until);
  }

  /** Rejects every waiting and future message; in-flight waits end with the same error. */
  close(): void {
    this.#closing.abort(new Error("Expected an open outbound scheduler but found it closed"));
  }

  [Symbol.dispose](): void {
    this.close();
  }

  #lane(key: string): Lane {
    let lane = this.#lanes.get(key);
    if (lane === undefined) {
      if (this.#lanes.size >= SWEEP_ABOVE) this.#sweep();
      lane = { window: new RateWindow(this.#perChat, this.#ms), busy: false, waiters: [] };
      this.#lanes.set(key, lane);
    }
    return lane;
  }

  #sweep(): void {
    const now = this.#clock.now();
    for (const [key, lane] of this.#lanes) {
      if (!lane.busy && lane.window.idle(now)) this.#lanes.delete(key);
    }
  }

  #acquire(lane: Lane, signal: AbortSignal): Promise<void> {
    if (!lane.busy) {
      lane.busy = true;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        resolve: () => {
          signal.removeEventListener("abort", onAbort);
          resolve();
        },
        reject,
      };
      const onAbort = () => {
        lane.waiters = lane.waiters.filter((w) => w !== waiter);
        reject(signal.reason);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      lane.waiters.push(waiter);
    });
  }

  #release(lane: Lane): void {
    const next = lane.waiters.shift();
    if (next === undefined) lane.busy = false;
    else next.resolve();
  }

  async #slot(lane: Lane, signal: AbortSignal): Promise<void> {
    for (;;) {
      signal.throwIfAborted();
      const now = this.#clock.now();
      const ready = Math.max(lane.window.readyAt(now), this.#app.readyAt(now));
      if (ready <= now) {
        lane.window.record(now);
        this.#app.record(now);
        return;
      }
      await this.#clock.sleep(ready - now, signal);
    }
  }
}

function positive(name: string, value: number, integer: boolean): number {
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    const what = integer ? "an integer" : "a number";
    throw new RangeError(`Expected ${name} to be ${what} greater than 0 but found ${value}`);
  }
  return value;
}
