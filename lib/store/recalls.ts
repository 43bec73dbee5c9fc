/**
 * Writing a recall into `store.db`: the recalled message's row (its JSON,
 * its searchable text, whose trigger updates the search index, and the
 * `recalled_at` / `recalled_by` columns), and, when its text is removed, the
 * one-line quote of it that replies in its chat carry (`reply_to_message`),
 * as Feishu itself shows a reply to a recalled message.
 * @module
 */

import type { DatabaseSync } from "node:sqlite";
import type { BridgeRecord } from "./record_types.ts";

/** What a recall writes. */
export interface RecallChange {
  record: BridgeRecord["record"];
  at: number;
  by: string;
  /** The quote replies show instead of its text, when its text was removed. */
  quote?: string;
}

/**
 * Writes a recall in one go; `searchText` derives the row's searchable text
 * from a record. False when no such incoming message exists.
 */
export function writeRecall(
  db: DatabaseSync,
  row: { account: string; id: string; chatId: string; now: number },
  change: RecallChange,
  searchText: (record: BridgeRecord["record"]) => string,
): boolean {
  const res = db.prepare(
    `UPDATE records SET record = ?, search_text = ?, recalled_at = ?, recalled_by = ?,
       updated_at = ? WHERE account = ? AND id = ? AND kind = 'message'`,
  ).run(
    JSON.stringify(change.record),
    searchText(change.record),
    Math.trunc(change.at),
    change.by,
    row.now,
    row.account,
    row.id,
  );
  if (res.changes === 0) return false;
  if (change.quote === undefined) return true;
  // Replies are in the recalled message's chat: its index bounds the look.
  const replies = db.prepare(
    `SELECT seq, record FROM records WHERE account = ? AND chat_id = ? AND kind = 'message'
       AND json_extract(record, '$.reply_to') = ?
       AND json_extract(record, '$.reply_to_message.text') IS NOT NULL`,
  ).all(row.account, row.chatId, row.id);
  const rewrite = db.prepare("UPDATE records SET record = ?, updated_at = ? WHERE seq = ?");
  for (const r of replies) {
    const record = JSON.parse(String(r.record));
    record.reply_to_message = { ...record.reply_to_message, text: change.quote };
    rewrite.run(JSON.stringify(record), row.now, Number(r.seq));
  }
  return true;
}
