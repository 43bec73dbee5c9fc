/**
 * The last known health of each account's long connection, written by the
 * running server when the state changes (and at most every few seconds for
 * the rest), so `doctor`, which cannot see the server's memory, can read it
 * from another process and say how old it is.
 * @module
 */

import type { DatabaseSync } from "node:sqlite";

/** One account's snapshot. */
export interface HealthSnapshot {
  account: string;
  /** The connection state (`connected`, `reconnecting`, `closed`…). */
  state: string;
  /** When that state began (ms), or null. */
  since: number | null;
  lastEventAt: number | null;
  /** The latest failure, already free of secrets and URL queries. */
  lastError: string | null;
  /** The account's failed auth state (`auth: token rejected at …`); absent while tokens work. */
  auth?: string | null;
  /** When the server wrote this row (ms). */
  updatedAt: number;
}

/** Data access for health snapshots. */
export class HealthStore {
  #db: DatabaseSync;
  #now: () => number;

  constructor(db: DatabaseSync, now: () => number) {
    this.#db = db;
    this.#now = now;
  }

  /** Replaces the account's snapshot; stamps it with the store's clock. */
  put(s: Omit<HealthSnapshot, "updatedAt">): void {
    this.#db.prepare(
      `INSERT INTO health (account, state, since, last_event_at, last_error, auth, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (account) DO UPDATE SET state = excluded.state, since = excluded.since,
         last_event_at = excluded.last_event_at, last_error = excluded.last_error,
         auth = excluded.auth, updated_at = excluded.updated_at`,
    ).run(s.account, s.state, s.since, s.lastEventAt, s.lastError, s.auth ?? null, this.#now());
  }

  /** Every snapshot, by account. */
  all(): HealthSnapshot[] {
    return readHealth(this.#db);
  }
}

const num = (v: unknown) => v === null || v === undefined ? null : Number(v);

/** Every snapshot from any connection to `store.db`. */
export function readHealth(db: DatabaseSync): HealthSnapshot[] {
  return db.prepare("SELECT * FROM health ORDER BY account").all().map((r) => ({
    account: String(r.account),
    state: String(r.state),
    since: num(r.since),
    lastEventAt: num(r.last_event_at),
    lastError: r.last_error === null ? null : String(r.last_error),
    // A store from before the auth column has no such key.
    ...(typeof r.auth === "string" ? { auth: r.auth } : {}),
    updatedAt: Number(r.updated_at),
  }));
}
