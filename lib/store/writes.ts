/**
 * The ledger of once-only writes the server makes on its own (the `OK`
 * reaction on an admitted message, say): a write is `pending` from just
 * before its Feishu call and `done`, with its result, once answered. A replay
 * that finds `done` skips the call; one that finds `pending` knows a crash
 * may have cut it off after Feishu acted, and checks before acting again.
 * @module
 */

import type { DatabaseSync } from "node:sqlite";

/** One entry of the ledger. */
export interface WriteEntry {
  state: "pending" | "done";
  result: string | null;
}

/** Data access for the ledger, one account at a time. */
export class WriteStore {
  #db: DatabaseSync;
  #now: () => number;

  constructor(db: DatabaseSync, now: () => number) {
    this.#db = db;
    this.#now = now;
  }

  get(account: string, key: string): WriteEntry | null {
    const r = this.#db.prepare("SELECT state, result FROM writes WHERE account = ? AND key = ?")
      .get(account, key);
    if (!r) return null;
    return {
      state: r.state === "done" ? "done" : "pending",
      result: typeof r.result === "string" ? r.result : null,
    };
  }

  /** Marks a write as begun (a second begin leaves a `done` entry as it is). */
  begin(account: string, key: string): void {
    this.#db.prepare(
      `INSERT INTO writes (account, key, state, result, updated_at) VALUES (?, ?, 'pending', NULL, ?)
       ON CONFLICT (account, key) DO NOTHING`,
    ).run(account, key, this.#now());
  }

  finish(account: string, key: string, result: string | null): void {
    this.#db.prepare(
      `INSERT INTO writes (account, key, state, result, updated_at) VALUES (?, ?, 'done', ?, ?)
       ON CONFLICT (account, key) DO UPDATE SET state = 'done', result = excluded.result,
         updated_at = excluded.updated_at`,
    ).run(account, key, result, this.#now());
  }

  /** Keys of the account's writes begun but never answered, with this prefix. */
  pending(account: string, prefix: string): string[] {
    return this.#db.prepare(
      `SELECT key FROM writes WHERE account = ? AND state = 'pending' AND substr(key, 1, ?) = ?
       ORDER BY updated_at`,
    ).all(account, prefix.length, prefix).map((r) => String(r.key));
  }

  forget(account: string, key: string): void {
    this.#db.prepare("DELETE FROM writes WHERE account = ? AND key = ?").run(account, key);
  }

  /**
   * The ledger of one account, in the shape the outbox takes.
   *
   * @example
   * ```ts
   * import { DatabaseSync } from "node:sqlite";
   * import { WriteStore } from "./writes.ts";
   * const db = new DatabaseSync(":memory:");
   * db.exec("CREATE TABLE writes (account TEXT, key TEXT, state TEXT, result TEXT, updated_at INTEGER, PRIMARY KEY (account, key))");
   * const ledger = new WriteStore(db, () => 0).ledger("main");
   * ledger.begin("seen:om_1");
   * if (ledger.get("seen:om_1")?.state !== "pending") throw new Error();
   * ledger.finish("seen:om_1", "rc_1");
   * if (ledger.get("seen:om_1")?.result !== "rc_1") throw new Error();
   * ```
   */
  ledger(account: string): {
    get(key: string): WriteEntry | null;
    begin(key: string): void;
    finish(key: string, result: string | null): void;
    forget(key: string): void;
  } {
    return {
      get: (key) => this.get(account, key),
      begin: (key) => this.begin(account, key),
      finish: (key, result) => this.finish(account, key, result),
      forget: (key) => this.forget(account, key),
    };
  }
}
