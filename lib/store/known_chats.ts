/**
 * Which chats the store has heard from, for backfill's discovery of chats it
 * never saw: whether a chat had an incoming message before a cut (a store
 * sequence), and the DMs known only from a person opening them
 * (`p2p_entered` events, migration 11's partial index).
 * @module
 */

import type { DatabaseSync } from "node:sqlite";

/**
 * True when `chatId` has an incoming message stored up to `upToSeq` (all of
 * them without it). The summary row (primary key) answers for a chat that
 * never had one; otherwise the chat's records are walked newest first
 * (`records_chat_time`) until one from before the cut: only the records
 * written since.
 */
export function hadIncoming(
  db: DatabaseSync,
  account: string,
  chatId: string,
  upToSeq?: number,
): boolean {
  const row = db.prepare(
    `SELECT 1 FROM chat_summaries s
     WHERE s.account = ? AND s.chat_id = ? AND s.last_in_time IS NOT NULL
       AND EXISTS (SELECT 1 FROM records r WHERE r.account = s.account AND r.chat_id = s.chat_id
         AND r.direction = 'incoming' AND r.kind = 'message' AND r.hidden = 0 AND r.seq <= ?
         ORDER BY r.create_time DESC, r.seq DESC)`,
  ).get(account, chatId, upToSeq ?? Number.MAX_SAFE_INTEGER);
  return row !== undefined;
}

/** A DM someone opened (`p2p_entered`), and when they last did (ms). */
export interface EnteredChat {
  chatId: string;
  enteredAt: number;
}

/**
 * DMs people opened since `sinceMs` that have no incoming message stored up
 * to `upToSeq`, most recently opened first, at most `limit`. A bot token
 * cannot list p2p chats: such a DM is known only from its `p2p_entered`
 * event record.
 */
export function enteredChats(
  db: DatabaseSync,
  account: string,
  options: { sinceMs: number; upToSeq?: number; limit: number },
): EnteredChat[] {
  return db.prepare(
    `SELECT json_extract(e.record, '$.source_chat_id') AS source, MAX(e.create_time) AS at
     FROM records e
     WHERE e.account = ? AND e.kind = 'event'
       AND json_extract(e.record, '$.event_type') = 'p2p_entered' AND e.create_time >= ?
     GROUP BY source ORDER BY at DESC`,
  ).all(account, Math.trunc(options.sinceMs))
    .filter((r) => typeof r.source === "string" && r.source !== "")
    .filter((r) => !hadIncoming(db, account, String(r.source), options.upToSeq))
    .slice(0, options.limit)
    .map((r) => ({ chatId: String(r.source), enteredAt: Number(r.at) }));
}
