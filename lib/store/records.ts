/**
 * Message records (inbound messages, sent messages, passive events, card
 * actions): real columns for what queries use, the full record as JSON.
 * @module
 */

import type { DatabaseSync, SQLInputValue } from "node:sqlite";
import type { BridgeRecord, RecordKind } from "./record_types.ts";
import { inTransaction } from "./db.ts";
import { type RecallChange, writeRecall } from "./recalls.ts";
import {
  type ActiveChat,
  activeChats,
  conversations,
  type ConversationSummary,
} from "./chat_summaries.ts";

import { type EnteredChat, enteredChats, hadIncoming } from "./known_chats.ts";

export type { ActiveChat, ConversationHead, ConversationSummary } from "./chat_summaries.ts";
export type { EnteredChat } from "./known_chats.ts";

/** The columns of a record as written, besides its kind and JSON. */
interface RecordColumns {
  account: string;
  /** Compound id (`{alias}:{chat_id}:{message or event part}`). */
  id: string;
  chatId: string;
  threadId?: string | null;
  feishuMessageId?: string | null;
  feishuEventId?: string | null;
  direction: "incoming" | "outgoing";
  status?: string | null;
  /** Feishu create time (ms); sort key, then arrival sequence. */
  createTime: number;
  /** Hidden records (resident Task Cards) are invisible to every action. */
  hidden?: boolean;
  fromOpenId?: string | null;
  /** Every compound id that resolves to this record (chunks of a sent message). */
  chunkIds?: string[];
}

/** A record as written: its columns, its kind and the full object `read` returns. */
export type RecordInput = RecordColumns & BridgeRecord;

/** A record as read back. */
export type StoredRecord = {
  seq: number;
  account: string;
  id: string;
  chatId: string;
  direction: "incoming" | "outgoing";
  status: string | null;
  createTime: number;
  isRead: boolean;
} & BridgeRecord;

/**
 * The searchable text of a record: sender open_id, display name,
 * text, event type and the event projection.
 *
 * @example
 * ```ts
 * import { buildSearchText } from "./records.ts";
 * const s = buildSearchText({ from_open_id: "ou_a", from_name: "Ann", text: "hi", event_type: null });
 * if (s !== "ou_a Ann hi  {}") throw new Error(s);
 * ```
 */
export function buildSearchText(record: {
  from_open_id?: unknown;
  from_name?: unknown;
  text?: unknown;
  event_type?: unknown;
  event?: unknown;
}): string {
  const str = (v: unknown) => typeof v === "string" ? v : "";
  return [
    str(record.from_open_id),
    str(record.from_name),
    str(record.text),
    str(record.event_type),
    JSON.stringify(record.event ?? {}),
  ].join(" ");
}

const COLUMNS = "seq, account, id, chat_id, direction, kind, status, create_time, is_read, record";

/** Data access for records; synchronous (node:sqlite), each call short. */
export class RecordStore {
  #db: DatabaseSync;
  #now: () => number;

  constructor(db: DatabaseSync, now: () => number) {
    this.#db = db;
    this.#now = now;
  }

  /**
   * Inserts a record unless one with the same (account, id) exists.
   * Returns true when it was inserted (idempotent replays return false).
   */
  insert(input: RecordInput): boolean {
    const res = this.#db.prepare(
      `INSERT INTO records (account, id, chat_id, thread_id, feishu_message_id, feishu_event_id,
         direction, kind, status, create_time, hidden, from_open_id, search_text, record, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (account, id) DO NOTHING`,
    ).run(...this.#values(input));
    if (res.changes === 0) return false;
    this.#indexChunks(input);
    return true;
  }

  /**
   * Rewrites an existing record's JSON (and its status and searchable text),
   * leaving the other columns as they are; indexes any new chunk ids. Used by
   * the edit/delete lifecycle and by a replayed partial send. False when no
   * such record exists.
   */
  update(
    account: string,
    id: string,
    change: { record: BridgeRecord["record"]; status?: string | null; chunkIds?: string[] },
  ): boolean {
    const res = this.#db.prepare(
      `UPDATE records SET record = ?, status = ?, search_text = ?, updated_at = ?
       WHERE account = ? AND id = ?`,
    ).run(
      JSON.stringify(change.record),
      change.status ?? null,
      buildSearchText(change.record),
      this.#now(),
      account,
      id,
    );
    if (res.changes === 0) return false;
    this.#indexChunks({ account, id, chunkIds: change.chunkIds });
    return true;
  }

  /**
   * Marks an incoming message recalled: its JSON becomes `record` (which
   * carries `recalled`, and without its text unless the operator keeps
   * recalled messages), its searchable text follows (the search index's
   * trigger drops the old text), the columns say who and when, and with a
   * `quote` the replies quoting it show that instead (see recalls.ts).
   * False when no such record exists.
   */
  markRecalled(account: string, id: string, chatId: string, change: RecallChange): boolean {
    return writeRecall(
      this.#db,
      { account, id, chatId, now: this.#now() },
      change,
      buildSearchText,
    );
  }

  /**
   * Whether the bot sent a visible message in the record's chat after it
   * (Feishu's time, then arrival): what counts as the agent having answered
   * it, the same event that ends the chat's Typing.
   */
  answeredAfter(account: string, stored: Pick<StoredRecord, "chatId" | "createTime" | "seq">) {
    return this.#db.prepare(
      `SELECT 1 FROM records WHERE account = ? AND chat_id = ? AND kind = 'sent' AND hidden = 0
         AND (create_time > ? OR (create_time = ? AND seq > ?)) LIMIT 1`,
    ).get(account, stored.chatId, stored.createTime, stored.createTime, stored.seq) !== undefined;
  }

  /** The record with this exact compound id. */
  get(account: string, id: string): StoredRecord | null {
    const row = this.#db.prepare(`SELECT ${COLUMNS} FROM records WHERE account = ? AND id = ?`)
      .get(account, id);
    return row ? toStored(row) : null;
  }

  /** The record whose id, or one of whose chunk ids, is `compoundId`. */
  findByMessageId(account: string, compoundId: string): StoredRecord | null {
    const direct = this.get(account, compoundId);
    if (direct) return direct;
    const chunk = this.#db.prepare(
      "SELECT record_id FROM record_chunks WHERE account = ? AND message_id = ?",
    ).get(account, compoundId);
    return chunk ? this.get(account, String(chunk.record_id)) : null;
  }

  /** The p2p chat a user last wrote to the bot from, if any (the sender index, newest first). */
  p2pChatOf(account: string, openId: string): string | null {
    const row = this.#db.prepare(
      `SELECT r.chat_id FROM records r
       JOIN chat_summaries s ON s.account = r.account AND s.chat_id = r.chat_id
       WHERE r.account = ? AND r.from_open_id = ? AND r.kind = 'message' AND s.chat_type = 'p2p'
       ORDER BY r.seq DESC LIMIT 1`,
    ).get(account, openId);
    return row ? String(row.chat_id) : null;
  }

  /**
   * Whether one of `openIds` is known in the chat: wrote a message there, or
   * the bot sent one there addressed to their open_id (the outbound gate).
   */
  chatKnowsAny(account: string, chatId: string, openIds: readonly string[]): boolean {
    if (openIds.length === 0) return false;
    const marks = openIds.map(() => "?").join(", ");
    const wrote = this.#db.prepare(
      `SELECT 1 FROM records WHERE account = ? AND chat_id = ? AND direction = 'incoming'
         AND kind = 'message' AND from_open_id IN (${marks}) LIMIT 1`,
    ).get(account, chatId, ...openIds);
    if (wrote) return true;
    const sentTo = this.#db.prepare(
      `SELECT 1 FROM records WHERE account = ? AND chat_id = ? AND kind = 'sent'
         AND json_extract(record, '$.to.receive_id_type') = 'open_id'
         AND json_extract(record, '$.to.receive_id') IN (${marks}) LIMIT 1`,
    ).get(account, chatId, ...openIds);
    return sentTo !== undefined;
  }

  /** The chat (and its type) of a stored message with this Feishu message id, if any. */
  chatOfFeishuMessage(
    account: string,
    feishuMessageId: string,
  ): { chatId: string; chatType: string | null; threadId: string | null } | null {
    const row = this.#db.prepare(
      `SELECT chat_id, thread_id, json_extract(record, '$.chat_type') AS chat_type FROM records
       WHERE account = ? AND feishu_message_id = ? AND kind IN ('message', 'sent') LIMIT 1`,
    ).get(account, feishuMessageId);
    if (!row) return null;
    return {
      chatId: String(row.chat_id),
      chatType: typeof row.chat_type === "string" ? row.chat_type : null,
      threadId: typeof row.thread_id === "string" && row.thread_id ? row.thread_id : null,
    };
  }

  /**
   * A message the bot sent (hidden ones included), by its Feishu message id:
   * its chat and topic, and whether it is a local command's answer (a
   * control card).
   */
  sentMessage(
    account: string,
    feishuMessageId: string,
  ): { chatId: string; threadId: string | null; localCommand: boolean } | null {
    const row = this.#db.prepare(
      `SELECT chat_id, thread_id, json_extract(record, '$.local_command') AS local_command
       FROM records WHERE account = ? AND feishu_message_id = ? AND kind = 'sent' LIMIT 1`,
    ).get(account, feishuMessageId);
    if (!row) return null;
    return {
      chatId: String(row.chat_id),
      threadId: typeof row.thread_id === "string" && row.thread_id ? row.thread_id : null,
      localCommand: Number(row.local_command) === 1,
    };
  }

  /** A chat's visible records, newest first; `limit` null means all. */
  listChat(account: string, chatId: string, limit: number | null): StoredRecord[] {
    const sql = `SELECT ${COLUMNS} FROM records WHERE account = ? AND chat_id = ? AND hidden = 0
      ORDER BY create_time DESC, seq DESC` + (limit === null ? "" : " LIMIT ?");
    const args: SQLInputValue[] = limit === null ? [account, chatId] : [account, chatId, limit];
    return this.#db.prepare(sql).all(...args).map(toStored);
  }

  /** Marks exactly these incoming records as read. */
  markRead(account: string, ids: readonly string[]): void {
    const stmt = this.#db.prepare(
      "UPDATE records SET is_read = 1 WHERE account = ? AND id = ? AND direction = 'incoming'",
    );
    inTransaction(this.#db, () => {
      for (const id of ids) stmt.run(account, id);
    }, "BEGIN");
  }

  /** `check`'s conversations, newest first (see chat_summaries.ts). */
  conversations(account: string, options: { unreadOnly?: boolean } = {}): ConversationSummary[] {
    return conversations(this.#db, account, options);
  }

  /**
   * The last `n` visible records of a chat, oldest first (notification
   * window). With `current`, a record older than those (a late or backfilled
   * message) gets the `n` records that end with it instead, so the wake it
   * causes shows it in its place.
   */
  window(account: string, chatId: string, n: number, current?: string): StoredRecord[] {
    const last = this.listChat(account, chatId, n);
    const at = current === undefined || last.some((r) => r.id === current)
      ? null
      : this.get(account, current);
    if (!at || at.chatId !== chatId) return last.reverse();
    return this.#db.prepare(
      `SELECT ${COLUMNS} FROM records WHERE account = ? AND chat_id = ? AND hidden = 0
         AND (create_time < ? OR (create_time = ? AND seq <= ?))
       ORDER BY create_time DESC, seq DESC LIMIT ?`,
    ).all(account, chatId, at.createTime, at.createTime, at.seq, n).map(toStored).reverse();
  }

  /** True once the agent was notified about this record. */
  isNotified(account: string, id: string): boolean {
    const r = this.#db.prepare("SELECT notified_at FROM records WHERE account = ? AND id = ?").get(
      account,
      id,
    );
    return r !== undefined && r.notified_at !== null;
  }

  /** Marks a record as notified (so a replay does not wake the agent twice). */
  markNotified(account: string, id: string): void {
    this.#db.prepare("UPDATE records SET notified_at = ? WHERE account = ? AND id = ?").run(
      this.#now(),
      account,
      id,
    );
  }

  /** The arrival sequence of the newest record (0 for an empty store). */
  lastSeq(): number {
    return Number(this.#db.prepare("SELECT MAX(seq) AS seq FROM records").get()?.seq ?? 0);
  }

  /** Backfill's candidate chats, newest message first (see chat_summaries.ts). */
  activeChats(account: string, options: { upToSeq?: number; limit?: number } = {}): ActiveChat[] {
    return activeChats(this.#db, account, { ...options, lastSeq: () => this.lastSeq() });
  }

  /** Whether a chat had an incoming message stored up to `upToSeq` (see known_chats.ts). */
  hadIncoming(account: string, chatId: string, upToSeq?: number): boolean {
    return hadIncoming(this.#db, account, chatId, upToSeq);
  }

  /** DMs known only from someone opening them (see known_chats.ts). */
  enteredChats(
    account: string,
    options: { sinceMs: number; upToSeq?: number; limit: number },
  ): EnteredChat[] {
    return enteredChats(this.#db, account, options);
  }

  /** Threads of a chat with records since `sinceMs`, most recently active first. */
  activeThreads(account: string, chatId: string, sinceMs: number, limit: number): string[] {
    return this.#db.prepare(
      `SELECT thread_id, MAX(create_time) AS latest FROM records
       WHERE account = ? AND chat_id = ? AND thread_id IS NOT NULL AND thread_id != ''
         AND create_time >= ?
       GROUP BY thread_id ORDER BY latest DESC LIMIT ?`,
    ).all(account, chatId, Math.trunc(sinceMs), limit).map((r) => String(r.thread_id));
  }

  #values(input: RecordInput): SQLInputValue[] {
    return [
      input.account,
      input.id,
      input.chatId,
      input.threadId ?? null,
      input.feishuMessageId ?? null,
      input.feishuEventId ?? null,
      input.direction,
      input.kind,
      input.status ?? null,
      Math.trunc(input.createTime),
      input.hidden ? 1 : 0,
      input.fromOpenId ?? null,
      buildSearchText(input.record),
      JSON.stringify(input.record),
      this.#now(),
    ];
  }

  #indexChunks(input: Pick<RecordInput, "account" | "id" | "chunkIds">): void {
    if (!input.chunkIds?.length) return;
    const stmt = this.#db.prepare(
      `INSERT INTO record_chunks (account, message_id, record_id) VALUES (?, ?, ?)
       ON CONFLICT (account, message_id) DO UPDATE SET record_id = excluded.record_id`,
    );
    for (const c of input.chunkIds) stmt.run(input.account, c, input.id);
  }
}

function toStored(row: Record<string, SQLInputValue>): StoredRecord {
  return {
    seq: Number(row.seq),
    account: String(row.account),
    id: String(row.id),
    chatId: String(row.chat_id),
    direction: row.direction as StoredRecord["direction"],
    status: row.status === null ? null : String(row.status),
    createTime: Number(row.create_time),
    isRead: Number(row.is_read) === 1,
    // The one place a row's JSON becomes its shape: the kind column says which.
    ...({ kind: row.kind as RecordKind, record: JSON.parse(String(row.record)) } as BridgeRecord),
  };
}
