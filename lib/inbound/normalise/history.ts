/**
 * History backfill goes through the same path as live events: an
 * `im/v1/messages` list item (a message object: `msg_type`, `body.content`, a
 * `sender.id` typed by `id_type`) is
 * rebuilt into a receive envelope flagged `backfilled: true`, so the record
 * gets `backfilled` and `delayed_seconds`.
 * @module
 */

import { asArray, asObject, asText, type JsonObject } from "./_json.ts";
import type { RawEnvelope } from "../../feishu/mod.ts";

const ID_KINDS = new Set(["open_id", "user_id", "union_id", "app_id"]);

/** Options of {@link envelopeFromHistoryItem}. */
export interface HistoryOptions {
  /**
   * Feishu's chat kind of the container chat (`p2p`, `group`, …); message
   * objects do not carry it. Without it the record's chat type is `unknown`.
   */
  chatType?: string;
}

/**
 * Rebuilds a receive envelope from a message object. The event id is
 * `backfill-<message_id>`; ids typed by `id_type` land under that name.
 *
 * @example
 * ```ts
 * import { envelopeFromHistoryItem } from "./history.ts";
 * import assert from "node:assert/strict";
 * const env = envelopeFromHistoryItem({
 *   message_id: "om_1", chat_id: "oc_1", msg_type: "text", create_time: "1735700000000",
 *   sender: { id: "ou_a", id_type: "open_id", sender_type: "user" },
 *   body: { content: '{"text":"hi"}' },
 * }, { chatType: "p2p" });
 * assert.equal(env.backfilled, true);
 * assert.deepEqual(env.event?.sender, { sender_id: { open_id: "ou_a" }, sender_type: "user" });
 * ```
 */
export function envelopeFromHistoryItem(item: unknown, options: HistoryOptions = {}): RawEnvelope {
  const it = asObject(item) ?? {};
  const messageId = asText(it.message_id) ?? "";
  const createTime = timeText(it.create_time);
  const sender = asObject(it.sender) ?? {};
  const message: JsonObject = pick({
    message_id: messageId,
    root_id: asText(it.root_id),
    parent_id: asText(it.parent_id),
    thread_id: asText(it.thread_id),
    create_time: createTime,
    update_time: timeText(it.update_time),
    chat_id: asText(it.chat_id),
    chat_type: options.chatType,
    message_type: asText(it.msg_type) ?? asText(it.message_type),
    content: asText(asObject(it.body)?.content) ?? "",
    mentions: asArray(it.mentions).map(mentionOf).filter((m) => m !== undefined),
    deleted: it.deleted === true ? true : undefined,
    upper_message_id: asText(it.upper_message_id),
  });
  return {
    schema: "2.0",
    header: pick({
      event_id: `backfill-${messageId}`,
      event_type: "im.message.receive_v1",
      create_time: createTime,
    }) as RawEnvelope["header"],
    event: {
      sender: pick({
        sender_id: typedId(sender.id, sender.id_type),
        sender_type: asText(sender.sender_type),
        tenant_key: asText(sender.tenant_key),
      }),
      message,
    },
    backfilled: true,
  };
}

function mentionOf(value: unknown): JsonObject | undefined {
  const m = asObject(value);
  const key = asText(m?.key);
  if (!m || !key) return undefined;
  return pick({
    key,
    id: typedId(m.id, m.id_type ?? "open_id"),
    name: asText(m.name),
    tenant_key: asText(m.tenant_key),
  });
}

/** `{<id_type>: id}`; an id that is already an object passes through. */
function typedId(id: unknown, idType: unknown): JsonObject {
  const obj = asObject(id);
  if (obj) return obj;
  const value = asText(id);
  const kind = asText(idType) ?? "open_id";
  return value && ID_KINDS.has(kind) ? { [kind]: value } : {};
}

function timeText(value: unknown): string | undefined {
  return typeof value === "number" ? String(value) : asText(value);
}

/** Drops undefined members. */
function pick(obj: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined));
}
