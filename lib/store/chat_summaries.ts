/**
 * Queries over the per-chat summaries that `store.db`'s triggers keep
 * (migration 10): `check`'s conversations and backfill's active chats, in
 * one row per chat however long the history.
 * @module
 */

import type { DatabaseSync } from "node:sqlite";

/** What `check` shows of a chat's newest record (read from its JSON by SQLite, not parsed whole). */
export interface ConversationHead {
  id: string;
  direction: "incoming" | "outgoing";
  chatType: string | null;
  threadId: string | null;
  fromOpenId: string | null;
  fromName: string | null;
  text: string | null;
  /** `date`, or a sent record's `sent_at`. */
  date: string | null;
}

/** One row of `check`. */
export interface ConversationSummary {
  chatId: string;
  total: number;
  unread: number;
  newest: ConversationHead;
}

/** A chat with incoming messages, and the time of its newest one (ms). */
export interface ActiveChat {
  chatId: string;
  chatType: string | null;
  latest: number;
}

/**
 * Conversations with their newest record, totals and unread counts, newest
 * first; with `unreadOnly`, those with unread records. Reads the per-chat
 * summaries the store's triggers keep (migration 10), so it costs one row
 * per chat however long the history.
 */
export function conversations(
  db: DatabaseSync,
  account: string,
  options: { unreadOnly?: boolean } = {},
): ConversationSummary[] {
  const rows = db.prepare(
    `SELECT s.chat_id, s.total, s.unread, r.id, r.direction,
       json_extract(r.record, '$.chat_type') AS chat_type,
       json_extract(r.record, '$.thread_id') AS thread_id,
       json_extract(r.record, '$.from_open_id') AS from_open_id,
       json_extract(r.record, '$.from_name') AS from_name,
       json_extract(r.record, '$.text') AS text,
       COALESCE(json_extract(r.record, '$.date'), json_extract(r.record, '$.sent_at')) AS date
     FROM chat_summaries s JOIN records r ON r.seq = s.newest_seq
     WHERE s.account = ?${options.unreadOnly ? " AND s.unread > 0" : ""}
     ORDER BY s.newest_time DESC, s.newest_seq DESC`,
  ).all(account);
  const str = (v: unknown) => typeof v === "string" ? v : null;
  return rows.map((r) => ({
    chatId: String(r.chat_id),
    total: Number(r.total),
    unread: Number(r.unread),
    newest: {
      id: String(r.id),
      direction: r.direction as ConversationHead["direction"],
      chatType: str(r.chat_type),
      threadId: str(r.thread_id),
      fromOpenId: str(r.from_open_id),
      fromName: str(r.from_name),
      // A number or an object where text belongs is shown as SQLite gives it.
      text: r.text === null ? null : String(r.text),
      date: str(r.date),
    },
  }));
}

/**
 * Chats with incoming messages (backfill candidates), with their newest
 * message time, newest first, at most `limit`; with `upToSeq`, counting only
 * records that arrived up to that sequence (what was stored before a
 * connection was lost). Walks the chat summaries newest first and stops
 * once no chat left can enter the top `limit`.
 */
export function activeChats(
  db: DatabaseSync,
  account: string,
  options: { upToSeq?: number; limit?: number; lastSeq: () => number },
): ActiveChat[] {
  const limit = options.limit ?? Number.MAX_SAFE_INTEGER;
  const upToSeq = options.upToSeq ?? Number.MAX_SAFE_INTEGER;
  const before = db.prepare(
    `SELECT create_time FROM records WHERE account = ? AND chat_id = ? AND direction = 'incoming'
       AND kind = 'message' AND hidden = 0 AND seq <= ? ORDER BY create_time DESC, seq DESC
     LIMIT 1`,
  );
  const current = upToSeq >= options.lastSeq();
  const found: ActiveChat[] = [];
  const summaries = db.prepare(
    `SELECT chat_id, chat_type, last_in_time FROM chat_summaries
     WHERE account = ? AND last_in_time IS NOT NULL ORDER BY last_in_time DESC`,
  ).all(account);
  for (const s of summaries) {
    const newest = Number(s.last_in_time);
    // Sorted newest first: a chat whose newest message is older than the
    // limit-th found cannot enter the top (its time before the cut is older still).
    if (found.length >= limit && newest <= found[limit - 1]!.latest) break;
    const latest = current
      ? newest
      : Number(before.get(account, String(s.chat_id), upToSeq)?.create_time ?? NaN);
    if (Number.isNaN(latest)) continue;
    found.push({
      chatId: String(s.chat_id),
      chatType: s.chat_type === null ? null : String(s.chat_type),
      latest,
    });
    if (!current) found.sort((a, b) => b.latest - a.latest);
    if (found.length > limit) found.pop();
  }
  return found;
}
