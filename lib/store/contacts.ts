/**
 * Saved contacts per account. A contact never grants
 * admission; only `allowed_users` does.
 * @module
 */

import type { DatabaseSync } from "node:sqlite";

/** One contact entry as `contacts` returns it. */
export interface Contact {
  alias?: string | null;
  name?: string | null;
  chat_id?: string | null;
}

/** Data access for contacts. */
export class ContactStore {
  #db: DatabaseSync;
  #now: () => number;

  constructor(db: DatabaseSync, now: () => number) {
    this.#db = db;
    this.#now = now;
  }

  /** All contacts of an account keyed by open_id (the `contacts.json` shape). */
  list(account: string): Record<string, Contact> {
    const out: Record<string, Contact> = {};
    for (
      const r of this.#db.prepare(
        "SELECT open_id, alias, name, chat_id FROM contacts WHERE account = ? ORDER BY open_id",
      ).all(account)
    ) {
      const c: Contact = {};
      if (r.alias !== null) c.alias = String(r.alias);
      if (r.name !== null) c.name = String(r.name);
      if (r.chat_id !== null) c.chat_id = String(r.chat_id);
      out[String(r.open_id)] = c;
    }
    return out;
  }

  /** Number of contacts of an account. */
  count(account: string): number {
    return Number(
      this.#db.prepare("SELECT COUNT(*) AS n FROM contacts WHERE account = ?").get(account)?.n ?? 0,
    );
  }

  /** Replaces the whole entry (`add_contact`). */
  put(account: string, openId: string, contact: Contact): void {
    this.#db.prepare(
      `INSERT INTO contacts (account, open_id, alias, name, chat_id, updated_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (account, open_id) DO UPDATE SET alias = excluded.alias, name = excluded.name,
         chat_id = excluded.chat_id, updated_at = excluded.updated_at`,
    ).run(
      account,
      openId,
      contact.alias ?? null,
      contact.name ?? null,
      contact.chat_id ?? null,
      this.#now(),
    );
  }

  /** Records a sender: creates an empty entry, sets `chat_id` only if unset. */
  upsertSender(account: string, openId: string, chatId: string): void {
    this.#db.prepare(
      `INSERT INTO contacts (account, open_id, chat_id, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (account, open_id) DO UPDATE SET
         chat_id = COALESCE(NULLIF(contacts.chat_id, ''), excluded.chat_id)`,
    ).run(account, openId, chatId, this.#now());
  }

  /** Deletes one open_id; true when it existed. */
  removeOpenId(account: string, openId: string): boolean {
    return this.#db.prepare("DELETE FROM contacts WHERE account = ? AND open_id = ?")
      .run(account, openId).changes > 0;
  }

  /** Deletes every entry with this alias; returns the removed open_ids. */
  removeAlias(account: string, alias: string): string[] {
    const ids = this.#db.prepare(
      "SELECT open_id FROM contacts WHERE account = ? AND alias = ? ORDER BY open_id",
    ).all(account, alias).map((r) => String(r.open_id));
    this.#db.prepare("DELETE FROM contacts WHERE account = ? AND alias = ?").run(account, alias);
    return ids;
  }

  /** Display name from contacts: `name`, else `alias`, else "". */
  displayName(account: string, openId: string): string {
    const r = this.#db.prepare("SELECT alias, name FROM contacts WHERE account = ? AND open_id = ?")
      .get(account, openId);
    if (!r) return "";
    return String(r.name ?? "") || String(r.alias ?? "");
  }
}
