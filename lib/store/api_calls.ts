/**
 * Feishu API calls counted per account, calendar month (UTC, `YYYY-MM`) and
 * category. Every increment is one UPSERT on the store's connection, so
 * nothing counted is lost to a crash; the quota meter keeps the month's
 * totals in memory beside it.
 * @module
 */

import type { DatabaseSync } from "node:sqlite";

/** One counted row. */
export interface ApiCallRow {
  account: string;
  month: string;
  category: string;
  count: number;
}

/** Data access for the API call counts. */
export class ApiCallStore {
  #db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.#db = db;
  }

  /** Adds `n` calls to a row, creating it at `n`. */
  increment(account: string, month: string, category: string, n = 1): void {
    this.#db.prepare(
      `INSERT INTO api_calls (account, month, category, count) VALUES (?, ?, ?, ?)
       ON CONFLICT (account, month, category) DO UPDATE SET count = count + excluded.count`,
    ).run(account, month, category, n);
  }

  /** Every row of one month, by account then category. */
  month(month: string): ApiCallRow[] {
    return readApiCalls(this.#db, month);
  }
}

/**
 * The rows of one month from any connection to `store.db` (the server's, or
 * `doctor`'s read-only one).
 */
export function readApiCalls(db: DatabaseSync, month: string): ApiCallRow[] {
  return db.prepare(
    "SELECT account, month, category, count FROM api_calls WHERE month = ? ORDER BY account, category",
  ).all(month).map((r) => ({
    account: String(r.account),
    month: String(r.month),
    category: String(r.category),
    count: Number(r.count),
  }));
}
