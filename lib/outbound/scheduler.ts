/**
 * Outbound pacing for one app (Feishu allows 5 messages/s per user or group
 * and has an app-wide per-second tier). Every wire call waits for a slot:
 * within `perChatPerSecond` for its conversation and `appPerSecond` for the
 * app, over a rolling window, and after any "blocked until" hint a
 * `RATE_LIMITED` answer gave. Nothing is dropped: one run (a logical message,
 * an edit, a reaction) holds its conversation until its last call is out;
 * runs waiting for one conversation start by priority (a final answer before
 * a card update before a presence reaction), in call order within a
 * priority; different conversations proceed in parallel.
 *
 * Feishu counts a request when it arrives, which is after the slot was given
 * and before its answer came back. A caller that reports the answer (the
 * `done` a slot resolves to) moves that send's time to the answer, so a slow
 * first request (a token fetch before it, say) cannot let the sixth one land
 * inside the first one's second.
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

/** Call when the wire call a slot was given for has been answered (or failed). */
export type SlotDone = () => void;

/**
 * Waits for the next slot of the running message; await it before each wire
 * call, and call the `done` it resolves to once that call is answered.
 */
export type Slot = (signal?: AbortSignal) => Promise<SlotDone>;

/** One counted send: given at `t`, moved later when its answer arrives. */
interface Stamp {
  t: number;
}

/** The latest `max` send times of one rate scope. */
class RateWindow {
  readonly #max: number;
  readonly #ms: number;
  readonly #stamps: Stamp[] = [];
  blockedUntil = 0;

  constructor(max: number, ms: number) {
    this.#max = max;
    this.#ms = ms;
  }

  /** The earliest time one more event keeps every rolling window within `max`. */
  readyAt(now: number): number {
    const ready = this.#stamps.length < this.#max ? now : this.#oldest()!.t + this.#ms;
    return Math.max(now, ready, this.blockedUntil);
  }

  record(t: number): Stamp {
    const stamp = { t };
    this.#stamps.push(stamp);
    if (this.#stamps.length > this.#max) {
      this.#stamps.splice(this.#stamps.indexOf(this.#oldest()!), 1);
    }
    return stamp;
  }

  /** Whether the window no longer constrains anything at `now`. */
  idle(now: number): boolean {
    const last = Math.max(-Infinity, ...this.#stamps.map((s) => s.t));
    return last + this.#ms <= now && this.blockedUntil <= now;
  }

  #oldest(): Stamp | undefined {
    let oldest: Stamp | undefined;
    for (const s of this.#stamps) if (oldest === undefined || s.t < oldest.t) oldest = s;
    return oldest;
  }
}

/**
 * How urgent a run is; lower goes first among the runs waiting for one
 * conversation: the agent's answers, then card updates (progress and Task
 * Cards) and Typing changes (so the Typing goes right after the answer that
 * ends it), then the other presence reactions (`OK`, `THUMBSUP`).
 */
export const PRIORITY = { answer: 0, update: 1, presence: 2 } as const;

/** One of {@link PRIORITY}'s values. */
export type Priority = typeof PRIORITY[keyof typeof PRIORITY];

interface Waiter {
  priority: number;
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
 *     const done = await slot();
 *     sent.push(chunk);
 *     done();
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
    options: { signal?: AbortSignal; priority?: Priority } = {},
  ): Promise<T> {
    const signal = options.signal === undefined
      ? this.#closing.signal
      : AbortSignal.any([options.signal, this.#closing.signal]);
    signal.throwIfAborted();
    const lane = this.#lane(key);
    await this.#acquire(lane, options.priority ?? PRIORITY.answer, signal);
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

  #acquire(lane: Lane, priority: number, signal: AbortSignal): Promise<void> {
    if (!lane.busy) {
      lane.busy = true;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        priority,
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
      // After every waiter of the same or a more urgent priority: call order within one.
      const at = lane.waiters.findIndex((w) => w.priority > priority);
      if (at === -1) lane.waiters.push(waiter);
      else lane.waiters.splice(at, 0, waiter);
    });
  }

  #release(lane: Lane): void {
    const next = lane.waiters.shift();
    if (next === undefined) lane.busy = false;
    else next.resolve();
  }

  async #slot(lane: Lane, signal: AbortSignal): Promise<SlotDone> {
    for (;;) {
      signal.throwIfAborted();
      const now = this.#clock.now();
      const ready = Math.max(lane.window.readyAt(now), this.#app.readyAt(now));
      if (ready <= now) {
        const stamps = [lane.window.record(now), this.#app.record(now)];
        return () => {
          const answered = this.#clock.now();
          for (const s of stamps) s.t = Math.max(s.t, answered);
        };
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
