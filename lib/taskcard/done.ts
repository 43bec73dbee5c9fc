/**
 * When the agent has finished what a message asked. In-place card edits do
 * not notify anyone, so the user learns of the end of a long task from a
 * reaction on their own message. A request is under way once the agent's
 * events log moves after it; it is finished when the agent's runtime state,
 * having been seen `active`, reads `idle` or `asleep`, or, when the agent
 * publishes no usable state, once the events log has been quiet for a while.
 * A `stuck` or `suspended` agent has not finished anything.
 * @module
 */

/** The message that asked for the work. */
export interface Request {
  account: string;
  chatId: string;
  messageId: string;
  /** False for a card click: its end gets no reaction. */
  react?: boolean;
}

/** A finished request and the route it was made in. */
export type Finished = Request & { route: string };

interface Pending {
  request: Request;
  at: number;
  /** The events log moved after the request. */
  moving: boolean;
  /** The agent was seen `active` after the request. */
  sawActive: boolean;
}

const RESTING = new Set(["idle", "asleep"]);

/**
 * Tracks one pending request per route (a newer message of the route
 * replaces the older one: its answer covers both).
 *
 * @example
 * ```ts
 * import { DoneWatch } from "./done.ts";
 * const w = new DoneWatch(10_000);
 * w.request("main:oc_1", { account: "main", chatId: "oc_1", messageId: "om_1" }, 0);
 * w.activity(500);
 * w.state("active", 1000);
 * if (w.finished(1500).length !== 0) throw new Error("still working");
 * w.state("idle", 2000);
 * const done = w.finished(2000);
 * if (done.length !== 1 || done[0]!.messageId !== "om_1") throw new Error();
 * if (w.finished(3000).length !== 0) throw new Error("once");
 * ```
 */
export class DoneWatch {
  readonly #quietMs: number;
  readonly #pending = new Map<string, Pending>();
  #state: string | null = null;
  #lastActivity = Number.NEGATIVE_INFINITY;

  constructor(quietMs: number) {
    this.#quietMs = quietMs;
  }

  /** A message reached the agent in a route. */
  request(route: string, request: Request, at: number): void {
    this.#pending.set(route, { request, at, moving: false, sawActive: false });
  }

  /** The events log changed. */
  activity(at: number): void {
    this.#lastActivity = at;
    for (const p of this.#pending.values()) if (at >= p.at) p.moving = true;
  }

  /** The agent's runtime state now (null when it publishes none). */
  state(state: string | null, _at: number): void {
    this.#state = state;
    if (state === "active") { for (const p of this.#pending.values()) p.sawActive = true; }
  }

  /** Requests finished by now; each is reported once. */
  finished(now: number): Finished[] {
    const state = this.#state;
    const resting = state === null || RESTING.has(state);
    const quiet = now - this.#lastActivity >= this.#quietMs;
    const out: Finished[] = [];
    for (const [route, p] of this.#pending) {
      if (!p.moving || !resting) continue;
      if ((p.sawActive && state !== null) || quiet) {
        out.push({ ...p.request, route });
        this.#pending.delete(route);
      }
    }
    return out;
  }

  /** Whether a request of the route is under way or waiting. */
  has(route: string): boolean {
    return this.#pending.has(route);
  }

  /** Drops the route's request without reporting it. */
  forget(route: string): void {
    this.#pending.delete(route);
  }

  /** How many requests are under way or waiting. */
  get size(): number {
    return this.#pending.size;
  }
}
