/**
 * Chats the bot can no longer write to: dissolved (`im.chat.disbanded_v1`,
 * or Feishu's 230045 answering a write) or the bot removed
 * (`im.chat.member.bot.deleted_v1`). Kept durably, so a restart still refuses
 * writes there before any request; `im.chat.member.bot.added_v1` lifts it.
 * @module
 */

import type { DatabaseSync } from "node:sqlite";

/** Why a chat is gone. */
export type GoneReason = "dissolved" | "bot_removed";

/** One gone chat. */
export interface GoneChat {
  chatId: string;
  reason: GoneReason;
  /** When it went (ms): the event's time, else when we learned it. */
  at: number;
}

/** Data access for gone chats. */
export class GoneChatStore {
  #db: DatabaseSync;
  #now: () => number;

  constructor(db: DatabaseSync, now: () => number) {
    this.#db = db;
    this.#now = now;
  }

  /** Marks a chat gone (a later mark replaces an earlier one). */
  mark(account: string, chat: GoneChat): void {
    this.#db.prepare(
      `INSERT INTO gone_chats (account, chat_id, reason, at, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (account, chat_id) DO UPDATE SET reason = excluded.reason, at = excluded.at,
         updated_at = excluded.updated_at`,
    ).run(account, chat.chatId, chat.reason, Math.trunc(chat.at), this.#now());
  }

  /** Lifts a chat's mark (the bot was added back); true when there was one. */
  lift(account: string, chatId: string): boolean {
    return Number(
      this.#db.prepare("DELETE FROM gone_chats WHERE account = ? AND chat_id = ?").run(
        account,
        chatId,
      ).changes,
    ) > 0;
  }

  /** The chat's mark, or null while the bot may write there. */
  get(account: string, chatId: string): GoneChat | null {
    const r = this.#db.prepare(
      "SELECT chat_id, reason, at FROM gone_chats WHERE account = ? AND chat_id = ?",
    ).get(account, chatId);
    if (!r) return null;
    return {
      chatId: String(r.chat_id),
      reason: r.reason === "dissolved" ? "dissolved" : "bot_removed",
      at: Number(r.at),
    };
  }

  /** How many chats of the account are gone. */
  count(account: string): number {
    return Number(
      this.#db.prepare("SELECT count(*) AS n FROM gone_chats WHERE account = ?").get(account)?.n ??
        0,
    );
  }
}
