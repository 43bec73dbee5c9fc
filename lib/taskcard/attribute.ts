/**
 * Which conversation an events-log row belongs to. The agent keeps one events
 * log for everything it does, but a Task Card sits in one conversation that
 * other people read: a row may show there only when it was written for that
 * conversation. Pure bookkeeping (no I/O, times are given); when in doubt a
 * row belongs to no conversation.
 *
 * - A `tool_call` whose arguments name a chat (a compound message id
 *   `alias:chat:message`, a chat id, or the open id of a person whose direct
 *   chat is known) goes to that chat's route; to the topic's route when the
 *   message is one seen in a topic, else to every route of the chat. Naming
 *   several chats, or a chat or person without a route, gives no route.
 * - Any other row goes to the one route the agent is working for: the route
 *   with an open turn (woken and not finished) that began at or before the
 *   row's time. Zero or several such routes give no route.
 * - A text row or an untargeted call in the same provider round
 *   (`api_call_id`) as a call that went to route X goes to X, but only when
 *   no other conversation is being worked on (every open turn is X's).
 * - A tool result goes where its call went; session telemetry goes to every
 *   route with an open turn.
 * @module
 */

import { projectEvent, stripWhitespace } from "./project.ts";

/** How deep in `tool_args` chat references are looked for. */
export const ARG_DEPTH = 3;
/** String values examined per call (a huge argument cannot stall a poll). */
export const ARG_STRINGS = 256;
/** Messages, calls and rounds remembered (each oldest first, bounded). */
export const MEMORY = 4096;

/** A route the bridge knows (it has a card or woke the agent). */
export interface KnownRoute {
  key: string;
  account: string;
  chatId: string;
  threadId: string | null;
}

/** Where one row went. */
export interface Assignment {
  /** Route keys whose card takes the row (empty: no conversation). */
  routes: string[];
  /** The row shows on a card (public text or a tool call). */
  visible: boolean;
}

/** One events-log row to attribute: its parsed value and its time (epoch ms). */
export interface RowIn {
  value: unknown;
  at: number;
}

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const CONFLICT = "conflict" as const;
const CHAT_ID = /^oc_[A-Za-z0-9_-]+$/;
const OPEN_ID = /^ou_[A-Za-z0-9_-]+$/;

/** What a call's arguments name. */
type Target = { kind: "none" } | { kind: "elsewhere" } | { kind: "routes"; keys: string[] };

/**
 * The string values of `args` down to `depth` levels, at most `limit` of them.
 *
 * @example
 * ```ts
 * import { argStrings } from "./attribute.ts";
 * const s = argStrings({ input: { message_id: "m", deep: { deeper: { deepest: "x" } } } }, 3, 9);
 * if (s.join() !== "m") throw new Error(s.join());
 * ```
 */
export function argStrings(args: unknown, depth: number, limit: number): string[] {
  const out: string[] = [];
  const walk = (v: unknown, level: number) => {
    if (out.length >= limit) return;
    if (typeof v === "string") {
      out.push(v);
      return;
    }
    if (level >= depth || typeof v !== "object" || v === null) return;
    for (const child of Array.isArray(v) ? v : Object.values(v)) walk(child, level + 1);
  };
  if (isObject(args)) { for (const v of Object.values(args)) walk(v, 1); }
  return out;
}

/** Remembers `key → value`, newest last, forgetting the oldest beyond {@link MEMORY}. */
function remember<K, V>(map: Map<K, V>, key: K, value: V): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > MEMORY) map.delete(map.keys().next().value!);
}

const same = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((k) => b.includes(k));

/** Attributes events-log rows to routes. */
export class Attributor {
  readonly #routes = new Map<string, KnownRoute>();
  /** Direct chats by the open id of the person on the other side. */
  readonly #people = new Map<string, string>();
  /** The route of a message seen (by its Feishu message id). */
  readonly #messages = new Map<string, string>();
  /** The routes each tool call went to, for its result. */
  readonly #calls = new Map<string, string[]>();
  /** Who the targeted calls of each round went to. */
  readonly #rounds = new Map<string, string[] | typeof CONFLICT>();

  /** Knows a route (idempotent). */
  addRoute(route: KnownRoute): void {
    this.#routes.set(route.key, route);
  }

  /** Forgets a route (its binding expired). */
  removeRoute(key: string): void {
    this.#routes.delete(key);
  }

  /** The person `openId` talks to the agent in the direct chat `chatId`. */
  person(openId: string, chatId: string): void {
    if (openId) remember(this.#people, openId, chatId);
  }

  /** A message was seen in route `key`. */
  message(messageId: string, key: string): void {
    if (messageId) remember(this.#messages, messageId, key);
  }

  #chatRoutes(chatId: string, account: string | null): string[] {
    const keys: string[] = [];
    for (const r of this.#routes.values()) {
      if (r.chatId === chatId && (account === null || r.account === account)) keys.push(r.key);
    }
    return keys;
  }

  /** The routes a call's arguments name. */
  target(args: unknown): Target {
    const chats = new Map<string, string[]>();
    const people = new Set<string>();
    const name = (chatId: string, keys: string[]) => {
      const had = chats.get(chatId);
      chats.set(chatId, had === undefined ? keys : [...new Set([...had, ...keys])]);
    };
    for (const s of argStrings(args, ARG_DEPTH, ARG_STRINGS)) {
      if (s.length > 512) continue;
      if (CHAT_ID.test(s)) {
        name(s, this.#chatRoutes(s, null));
        continue;
      }
      if (OPEN_ID.test(s)) {
        people.add(s);
        continue;
      }
      const first = s.indexOf(":");
      const second = first < 0 ? -1 : s.indexOf(":", first + 1);
      if (second < 0) continue;
      const chatId = s.slice(first + 1, second);
      if (!CHAT_ID.test(chatId)) continue;
      const seen = this.#messages.get(s.slice(second + 1));
      const pinned = seen !== undefined && this.#routes.get(seen)?.chatId === chatId;
      name(chatId, pinned ? [seen] : this.#chatRoutes(chatId, s.slice(0, first)));
    }
    if (chats.size === 0) {
      if (people.size === 0) return { kind: "none" };
      const [person] = people;
      const chatId = people.size === 1 ? this.#people.get(person!) : undefined;
      if (chatId === undefined) return { kind: "elsewhere" };
      chats.set(chatId, this.#chatRoutes(chatId, null));
    }
    const [keys] = chats.values();
    if (chats.size > 1 || keys!.length === 0) return { kind: "elsewhere" };
    return { kind: "routes", keys: keys!.toSorted() };
  }

  /**
   * Where each row goes, given the open turns (route key → when its turn
   * began, epoch ms). The targeted calls of the whole batch are read first,
   * so a round's text written before its call still follows the call.
   */
  assign(rows: readonly RowIn[], turns: ReadonlyMap<string, number>): Assignment[] {
    const targets = rows.map((r) => this.#targetOf(r.value));
    rows.forEach((r, i) => {
      const t = targets[i]!;
      const round = roundOf(r.value);
      if (t.kind === "none" || round === null) return;
      const had = this.#rounds.get(round);
      const next = t.kind === "elsewhere" || had === CONFLICT ||
          (had !== undefined && !same(had, t.keys))
        ? CONFLICT
        : t.keys;
      remember(this.#rounds, round, next);
    });
    return rows.map((r, i) => this.#place(r, targets[i]!, turns));
  }

  #targetOf(value: unknown): Target {
    if (!isObject(value) || value.type !== "tool_call") return { kind: "none" };
    return this.target(value.tool_args);
  }

  #place(row: RowIn, target: Target, turns: ReadonlyMap<string, number>): Assignment {
    const value = row.value;
    if (!isObject(value)) return { routes: [], visible: false };
    if (value.type === "notification_block_injected") {
      return { routes: [...turns.keys()], visible: false };
    }
    if (value.type === "tool_result") {
      const id = value.tool_call_id;
      return { routes: typeof id === "string" ? this.#calls.get(id) ?? [] : [], visible: false };
    }
    const visible = projectEvent(value) !== null;
    if (!visible) return { routes: [], visible };
    let routes: string[];
    if (target.kind === "routes") routes = target.keys;
    else if (target.kind === "elsewhere") routes = [];
    else routes = this.#untargeted(roundOf(value), working(turns, row.at));
    const id = value.tool_call_id;
    if (value.type === "tool_call" && typeof id === "string" && id !== "" && routes.length) {
      remember(this.#calls, id, routes);
    }
    return { routes, visible };
  }

  #untargeted(round: string | null, busy: string[]): string[] {
    const owner = round === null ? undefined : this.#rounds.get(round);
    if (owner === CONFLICT) return [];
    if (owner === undefined) return busy.length === 1 ? busy : [];
    if (busy.length === 0) return owner;
    return busy.every((k) => owner.includes(k)) ? busy : [];
  }
}

/** Routes whose open turn began at or before `at`. */
export function working(turns: ReadonlyMap<string, number>, at: number): string[] {
  const out: string[] = [];
  for (const [key, since] of turns) if (since <= at) out.push(key);
  return out;
}

/** A row's provider round, or null without one (a legacy row is a round of its own). */
function roundOf(value: unknown): string | null {
  if (!isObject(value) || typeof value.api_call_id !== "string") return null;
  const id = stripWhitespace(value.api_call_id);
  return id === "" ? null : id;
}

/**
 * The time of a row in epoch ms: its `ts` (epoch seconds) when it has a
 * usable one, else `seen` (when the tailer read it).
 *
 * @example
 * ```ts
 * import { rowTime } from "./attribute.ts";
 * if (rowTime({ ts: 1.5 }, 9) !== 1500 || rowTime({ ts: "x" }, 9) !== 9) throw new Error();
 * ```
 */
export function rowTime(value: unknown, seen: number): number {
  const ts = isObject(value) ? value.ts : undefined;
  return typeof ts === "number" && Number.isFinite(ts) && ts > 0 ? ts * 1000 : seen;
}
