/**
 * The stored columns of a record, derived from its typed shape: the one
 * place that knows which field of which kind becomes which column. Pure.
 * @module
 */

import type { BridgeRecord, RecordInput } from "../store/mod.ts";

/** Where a record belongs: the app, the chat and (in a topic) the thread. */
export interface Route {
  account: string;
  chatId: string;
  threadId: string | null;
}

/** What a record's own fields do not say. */
export interface RecordMeta {
  /** The Feishu event that carried it (inbound messages). */
  eventId?: string | null;
  /**
   * Feishu's create time in ms, when the producer knows it more precisely
   * than the record (its `create_time_ms`, else its `date`, whole seconds).
   */
  atMs?: number | null;
}

const text = (v: unknown): string | null => typeof v === "string" && v !== "" ? v : null;

/**
 * Feishu's create time of a record (ms): `atMs`, else its `create_time_ms`,
 * else its `date` (whole seconds), else `fallbackMs`. Messages and sends carry
 * ms, so a chat orders by Feishu's time even within one second.
 */
function createTime(entry: BridgeRecord, meta: RecordMeta, fallbackMs: number): number {
  if (typeof meta.atMs === "number" && Number.isFinite(meta.atMs)) return meta.atMs;
  const own = "create_time_ms" in entry.record ? entry.record.create_time_ms : undefined;
  if (typeof own === "number" && Number.isFinite(own) && own > 0) return own;
  const parsed = Date.parse(String(entry.record.date ?? ""));
  return Number.isFinite(parsed) ? parsed : fallbackMs;
}

/**
 * The route of a record: its account, chat and thread.
 *
 * @example
 * ```ts
 * import { routeOf } from "./columns.ts";
 * import assert from "node:assert/strict";
 * const r = routeOf("main", { kind: "card_action", record: {
 *   id: "main:oc_1:callback-ev", feishu_event_id: "ev", chat_id: "oc_1", thread_id: "omt_1",
 *   message_type: "card_action", from_open_id: "ou_a", from_name: null, text: "",
 *   date: "2026-01-01T00:00:00Z", synthetic: true, card_action: {}, source_message_id: null,
 *   source_message_ref: null } });
 * assert.deepEqual(r, { account: "main", chatId: "oc_1", threadId: "omt_1" });
 * ```
 */
export function routeOf(account: string, entry: BridgeRecord): Route {
  return { account, chatId: entry.record.chat_id, threadId: text(entry.record.thread_id) };
}

/**
 * Everything the store writes for a record: its columns from its kind and
 * fields, then the record itself.
 *
 * @example An inbound message
 * ```ts
 * import { storedColumns } from "./columns.ts";
 * import assert from "node:assert/strict";
 * const input = storedColumns("main", { kind: "event", record: {
 *   id: "main:events:e1", feishu_event_id: "e1", chat_id: "events", chat_type: "synthetic",
 *   thread_id: null, message_type: "event", event_type: "reaction", from_open_id: "ou_a",
 *   from_name: null, text: "", date: "2026-01-01T00:00:01Z", synthetic: true,
 *   source_chat_id: null, event: {}, feishu: {} } }, {}, 0);
 * assert.equal(input.direction, "incoming");
 * assert.equal(input.createTime, Date.parse("2026-01-01T00:00:01Z"));
 * assert.equal(input.feishuEventId, "e1");
 * ```
 */
export function storedColumns(
  account: string,
  entry: BridgeRecord,
  meta: RecordMeta,
  nowMs: number,
): RecordInput {
  const at = createTime(entry, meta, nowMs);
  const route = routeOf(account, entry);
  const base = { account, id: entry.record.id, chatId: route.chatId, threadId: route.threadId };
  switch (entry.kind) {
    case "message": {
      const r = entry.record;
      return {
        ...base,
        ...entry,
        feishuMessageId: r.feishu_message_id,
        feishuEventId: meta.eventId ?? null,
        direction: "incoming",
        createTime: at,
        fromOpenId: text(r.from_open_id),
      };
    }
    case "event":
    case "card_action":
      return {
        ...base,
        ...entry,
        feishuEventId: entry.record.feishu_event_id,
        direction: "incoming",
        createTime: at,
        fromOpenId: text(entry.record.from_open_id),
      };
    case "sent": {
      const r = entry.record;
      return {
        ...base,
        ...entry,
        feishuMessageId: r.feishu_message_id,
        direction: "outgoing",
        status: r.status,
        createTime: at,
        // The bridge's own bookkeeping messages are invisible to every action.
        hidden: r.task_card === true || r.local_command === true,
        chunkIds: [...r.message_ids],
      };
    }
  }
}
