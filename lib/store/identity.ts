/**
 * The bot identity per account (open_id and name from `bot/v3/info`), cached so
 * group @-gating keeps working when the live lookup fails.
 * @module
 */

import type { DatabaseSync } from "node:sqlite";

/** A cached bot identity. */
export interface BotIdentity {
  account: string;
  appId: string;
  botOpenId: string | null;
  botName: string | null;
  botUserId: string | null;
  /** Where it came from: `bot_info`, `application`, or null when never verified. */
  source: string | null;
  lastVerifiedAt: number | null;
}

/** Data access for identities. */
export class IdentityStore {
  #db: DatabaseSync;
  #now: () => number;

  constructor(db: DatabaseSync, now: () => number) {
    this.#db = db;
    this.#now = now;
  }

  get(account: string): BotIdentity | null {
    const r = this.#db.prepare("SELECT * FROM identities WHERE account = ?").get(account);
    if (!r) return null;
    const s = (v: unknown) => v === null || v === undefined ? null : String(v);
    return {
      account,
      appId: String(r.app_id),
      botOpenId: s(r.bot_open_id),
      botName: s(r.bot_name),
      botUserId: s(r.bot_user_id),
      source: s(r.source),
      lastVerifiedAt: r.last_verified_at === null ? null : Number(r.last_verified_at),
    };
  }

  put(identity: BotIdentity): void {
    this.#db.prepare(
      `INSERT INTO identities (account, app_id, bot_open_id, bot_name, bot_user_id, source, last_verified_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (account) DO UPDATE SET app_id = excluded.app_id, bot_open_id = excluded.bot_open_id,
         bot_name = excluded.bot_name, bot_user_id = excluded.bot_user_id, source = excluded.source,
         last_verified_at = excluded.last_verified_at, updated_at = excluded.updated_at`,
    ).run(
      identity.account,
      identity.appId,
      identity.botOpenId,
      identity.botName,
      identity.botUserId,
      identity.source,
      identity.lastVerifiedAt,
      this.#now(),
    );
  }
}
