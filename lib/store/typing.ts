/**
 * Pending `Typing` reactions, one per (account, chat), kept durably so a
 * restart can clear the stale ones.
 * @module
 */

import type { DatabaseSync } from "node:sqlite";

/** One active Typing reaction. */
export interface TypingEntry {
  account: string;
  chatId: string;
  /** Feishu message id (om_…) the reaction sits on. */
  messageId: string;
  reactionId: string;
  receiveId: string | null;
  receiveIdType: string | null;
  createdAt: number;
}

/** Data access for Typing reactions. */
export class TypingStore {
  #db: DatabaseSync;
  #now: () => number;

  constructor(db: DatabaseSync, now: () => number) {
    this.#db = db;
    this.#now = now;
  }

  get(account: string, chatId: string): TypingEntry | null {
    const r = this.#db.prepare("SELECT * FROM typing WHERE account = ? AND chat_id = ?").get(
      account,
      chatId,
    );
    return r ? toEntry(r) : null;
  }

  /** Every entry of an account (left in place). */
  all(account: string): TypingEntry[] {
    return this.#db.prepare("SELECT * FROM typing WHERE account = ?").all(account).map(toEntry);
  }

  /** Stores an entry unless the chat already has one; true when stored. */
  put(entry: Omit<TypingEntry, "createdAt">): boolean {
    return this.#db.prepare(
      `INSERT INTO typing (account, chat_id, message_id, reaction_id, receive_id, receive_id_type, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (account, chat_id) DO NOTHING`,
    ).run(
      entry.account,
      entry.chatId,
      entry.messageId,
      entry.reactionId,
      entry.receiveId,
      entry.receiveIdType,
      this.#now(),
    ).changes > 0;
  }

  /** Removes and returns the chat's entry. */
  take(account: string, chatId: string): TypingEntry | null {
    const e = this.get(account, chatId);
    if (e) {
      this.#db.prepare("DELETE FROM typing WHERE account = ? AND chat_id = ?").run(account, chatId);
    }
    return e;
  }

  /** Removes and returns every entry of an account whose receive target matches. */
  takeByTarget(account: string, receiveId: string, receiveIdType: string): TypingEntry[] {
    const rows = this.#db.prepare(
      "SELECT * FROM typing WHERE account = ? AND receive_id = ? AND receive_id_type = ?",
    ).all(account, receiveId, receiveIdType).map(toEntry);
    for (const e of rows) {
      this.#db.prepare("DELETE FROM typing WHERE account = ? AND chat_id = ?").run(
        account,
        e.chatId,
      );
    }
    return rows;
  }

  /** Removes and returns every entry (shutdown, or stale ones at start). */
  takeAll(account: string): TypingEntry[] {
    const rows = this.#db.prepare("SELECT * FROM typing WHERE account = ?").all(account).map(
      toEntry,
    );
    for (const e of rows) {
      this.#db.prepare("DELETE FROM typing WHERE account = ? AND chat_id = ?").run(
        e.account,
        e.chatId,
      );
    }
    return rows;
  }
}

/**
 * Pending Typing reactions per account, from any connection to `store.db`
 * (the status's and `doctor`'s): each is one reaction still to remove.
 */
export function readTypingPending(db: DatabaseSync): { account: string; count: number }[] {
  return db.prepare("SELECT account, count(*) AS n FROM typing GROUP BY account ORDER BY account")
    .all().map((r) => ({ account: String(r.account), count: Number(r.n) }));
}

function toEntry(r: Record<string, unknown>): TypingEntry {
  return {
    account: String(r.account),
    chatId: String(r.chat_id),
    messageId: String(r.message_id),
    reactionId: String(r.reaction_id),
    receiveId: r.receive_id === null ? null : String(r.receive_id),
    receiveIdType: r.receive_id_type === null ? null : String(r.receive_id_type),
    createdAt: Number(r.created_at),
  };
}
