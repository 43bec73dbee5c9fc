/**
 * Resident Task Card bindings: exactly one card per route (account, chat and
 * optional thread), the compound id of the card the bridge owns there. Only
 * these exact ids are ever edited or deleted; the bridge never adopts a card
 * it did not record. A binding that does not read back as a valid one for
 * its own route is reported as `invalid`, and callers then send nothing to
 * that route (fail closed).
 * @module
 */

import type { DatabaseSync } from "node:sqlite";
import { isFeishuId, parseCompoundId } from "../core/mod.ts";

/** Where a resident card lives. */
export interface TaskCardRoute {
  account: string;
  chatId: string;
  threadId: string | null;
}

/** The binding of a route as read. */
export type BindingRead =
  | { state: "none" }
  | { state: "bound"; residentId: string }
  | { state: "invalid"; reason: string };

/**
 * The key of a route: `alias:chat` or `alias:chat:thread`.
 *
 * @example
 * ```ts
 * import { routeKey } from "./task_cards.ts";
 * if (routeKey({ account: "main", chatId: "oc_1", threadId: null }) !== "main:oc_1") throw new Error();
 * if (routeKey({ account: "main", chatId: "oc_1", threadId: "omt_2" }) !== "main:oc_1:omt_2") throw new Error();
 * ```
 */
export function routeKey(route: TaskCardRoute): string {
  return route.threadId === null
    ? `${route.account}:${route.chatId}`
    : `${route.account}:${route.chatId}:${route.threadId}`;
}

/** Why a stored row is not a binding of its own route, or null when it is. */
function invalidity(row: Record<string, unknown>): string | null {
  const { route, account, chat_id: chat, thread_id: thread, resident_id: id } = row;
  if (typeof account !== "string" || !account) return "account is empty";
  if (typeof chat !== "string" || !isFeishuId(chat)) return "chat_id is not a Feishu id";
  if (thread !== null && (typeof thread !== "string" || !isFeishuId(thread))) {
    return "thread_id is not a Feishu id";
  }
  if (route !== routeKey({ account, chatId: chat, threadId: thread })) {
    return "the route key does not match its fields";
  }
  if (typeof id !== "string" || !id) return "resident_id is empty";
  try {
    const parts = parseCompoundId(id);
    if (parts.alias !== account || parts.chatId !== chat || !isFeishuId(parts.messageId)) {
      return "resident_id belongs to another route";
    }
  } catch {
    return "resident_id is not a compound id";
  }
  return null;
}

/** Data access for the bindings. */
export class TaskCardStore {
  #db: DatabaseSync;
  #now: () => number;

  constructor(db: DatabaseSync, now: () => number) {
    this.#db = db;
    this.#now = now;
  }

  /** The route's binding. */
  get(route: TaskCardRoute): BindingRead {
    let row: Record<string, unknown> | undefined;
    try {
      row = this.#db.prepare("SELECT * FROM task_cards WHERE route = ?").get(routeKey(route));
    } catch (err) {
      return { state: "invalid", reason: `bindings unreadable: ${(err as Error).message}` };
    }
    if (!row) return { state: "none" };
    const bad = invalidity(row);
    if (bad) return { state: "invalid", reason: bad };
    return { state: "bound", residentId: String(row.resident_id) };
  }

  /**
   * Binds the route to a card (replacing its previous one). A new binding
   * counts as activity; replacing a card keeps the route's last activity.
   */
  set(route: TaskCardRoute, residentId: string): void {
    const now = this.#now();
    this.#db.prepare(
      `INSERT INTO task_cards (route, account, chat_id, thread_id, resident_id, updated_at, active_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (route) DO UPDATE SET resident_id = excluded.resident_id,
         updated_at = excluded.updated_at`,
    ).run(routeKey(route), route.account, route.chatId, route.threadId, residentId, now, now);
  }

  /** The route was active at `at` (a wake or a message); never moves its time back. */
  touch(route: TaskCardRoute, at: number): void {
    this.#db.prepare(
      `UPDATE task_cards SET active_at = MAX(COALESCE(active_at, updated_at), ?) WHERE route = ?`,
    ).run(at, routeKey(route));
  }

  /** Drops the route's binding; true when there was one. */
  delete(route: TaskCardRoute): boolean {
    const r = this.#db.prepare("DELETE FROM task_cards WHERE route = ?").run(routeKey(route));
    return Number(r.changes) > 0;
  }

  /** Drops every binding of a chat (its topics' too): the chat is gone. How many. */
  deleteChat(account: string, chatId: string): number {
    return Number(
      this.#db.prepare("DELETE FROM task_cards WHERE account = ? AND chat_id = ?").run(
        account,
        chatId,
      ).changes,
    );
  }

  /**
   * Drops the bindings of routes last active before `before` (a binding
   * stored before activity was kept counts from its last update); the
   * route keys and the cards they were bound to.
   */
  prune(before: number): { key: string; residentId: string }[] {
    return this.#db.prepare(
      `DELETE FROM task_cards WHERE COALESCE(active_at, updated_at) < ?
       RETURNING route, resident_id`,
    ).all(before).map((row) => ({ key: String(row.route), residentId: String(row.resident_id) }));
  }

  /** Whether some route is bound to this card. */
  contains(residentId: string): boolean {
    return this.#db.prepare("SELECT 1 FROM task_cards WHERE resident_id = ? LIMIT 1")
      .get(residentId) !== undefined;
  }

  /**
   * Every bound route, valid or not (an invalid one carries its reason, so
   * the caller can say so and leave it alone).
   */
  routes(): { route: TaskCardRoute; key: string; invalid: string | null; activeAt: number }[] {
    let rows: Record<string, unknown>[];
    try {
      rows = this.#db.prepare("SELECT * FROM task_cards ORDER BY updated_at, route").all();
    } catch (err) {
      const reason = `bindings unreadable: ${(err as Error).message}`;
      const route = { account: "", chatId: "", threadId: null };
      return [{ route, key: "*", invalid: reason, activeAt: 0 }];
    }
    return rows.map(
      (row) => ({
        route: {
          account: String(row.account ?? ""),
          chatId: String(row.chat_id ?? ""),
          threadId: typeof row.thread_id === "string" ? row.thread_id : null,
        },
        key: String(row.route),
        invalid: invalidity(row),
        activeAt: Number(row.active_at ?? row.updated_at ?? 0),
      }),
    );
  }
}
