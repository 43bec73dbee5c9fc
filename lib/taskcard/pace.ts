/**
 * Per-route pacing of Task Card deliveries: at most one delivery per route
 * per `gapMs`, one at a time, and the latest state always delivered. A
 * request made while a route waits or delivers only marks it dirty; the
 * delivery that follows renders the state of its own moment, so any number
 * of changes in one second cost one card write. A failed delivery is tried
 * again after a growing pause (a few times), then waits for the next change,
 * so a chat that refuses every card write cannot burn the app's quota. The
 * gap may be a function, read after each delivery: near the month's API
 * quota the server passes a longer one, and the pace follows at the next
 * write.
 * @module
 */

import { type Clock, exponentialDelay } from "../core/mod.ts";

/** The least time between two deliveries of one route unless told otherwise. */
export const DEFAULT_GAP_MS = 1000;

/** The longest pause before a failed route is tried again. */
const RETRY_MAX_MS = 60_000;

/** What a delivery reported. */
export type RunResult = "ok" | "failed";

/** Options of {@link RoutePacer}. */
export interface PacerOptions {
  clock: Clock;
  /** Delivers one route now; `create` when a card may be sent where none is bound. */
  run(key: string, create: boolean): Promise<RunResult>;
  /** Least time between two deliveries of one route (default {@link DEFAULT_GAP_MS}). */
  gapMs?: number | (() => number);
  /** Automatic retries of a failing route before it waits for the next change (default 4). */
  retries?: number;
  onError?(key: string, err: unknown): void;
}

interface RouteState {
  dirty: boolean;
  create: boolean;
  running: boolean;
  timer: boolean;
  notBefore: number;
  failures: number;
}

/** The pacer of all routes. */
export class RoutePacer {
  readonly #o: PacerOptions;
  readonly #routes = new Map<string, RouteState>();
  readonly #stop = new AbortController();
  #busy = 0;
  #idle: (() => void)[] = [];

  constructor(options: PacerOptions) {
    this.#o = options;
  }

  /** Asks for a delivery of `key` (soon, within the route's pace). */
  request(key: string, create = false): void {
    if (this.#stop.signal.aborted) return;
    let s = this.#routes.get(key);
    if (!s) {
      s = { dirty: false, create: false, running: false, timer: false, notBefore: 0, failures: 0 };
      this.#routes.set(key, s);
    }
    s.dirty = true;
    s.create ||= create;
    // A change resets the retry budget: the new state deserves its own attempts.
    s.failures = 0;
    this.#schedule(key, s);
  }

  /** Forgets an idle route's pace (a route waiting or delivering is kept). */
  forget(key: string): void {
    const s = this.#routes.get(key);
    if (s && !s.running && !s.timer) this.#routes.delete(key);
  }

  /** Resolves when no route waits or delivers. */
  idle(): Promise<void> {
    if (this.#busy === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /** Stops every timer; a delivery under way finishes on its own. */
  close(): void {
    this.#stop.abort();
  }

  #schedule(key: string, s: RouteState): void {
    if (s.running || s.timer || !s.dirty) return;
    s.timer = true;
    this.#busy++;
    const wait = Math.max(0, s.notBefore - this.#o.clock.now());
    this.#o.clock.sleep(wait, this.#stop.signal).then(
      () => this.#fire(key, s),
      () => this.#settle(s),
    );
  }

  async #fire(key: string, s: RouteState): Promise<void> {
    s.timer = false;
    s.running = true;
    const create = s.create;
    s.dirty = false;
    s.create = false;
    let result: RunResult = "failed";
    try {
      result = await this.#o.run(key, create);
    } catch (err) {
      this.#o.onError?.(key, err);
    }
    s.running = false;
    const g = this.#o.gapMs ?? DEFAULT_GAP_MS;
    const gap = typeof g === "function" ? g() : g;
    if (result === "ok") {
      s.failures = 0;
      s.notBefore = this.#o.clock.now() + gap;
    } else {
      s.failures++;
      // Twice the gap, doubling: 2, 4, 8, 16 s at the usual gap, never over a minute.
      s.notBefore = this.#o.clock.now() +
        exponentialDelay(s.failures, { baseMs: 2 * gap, maxMs: RETRY_MAX_MS });
      if (s.failures <= (this.#o.retries ?? 4)) {
        s.dirty = true;
        s.create ||= create;
      }
    }
    this.#schedule(key, s);
    this.#settle(s);
  }

  #settle(_s: RouteState): void {
    this.#busy--;
    if (this.#busy === 0) { for (const r of this.#idle.splice(0)) r(); }
  }
}
