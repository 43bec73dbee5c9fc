/**
 * The raw `im.message.receive_v1` envelope (schema 2.0) as Feishu sends it,
 * and one reader that pulls the fields every stage needs out of it safely.
 * Admission, reactions and normalisation all read through {@link readMessage},
 * so they agree on what a message says.
 * @module
 */

import { asArray, asObject, asText } from "./_json.ts";
import type { RawEnvelope } from "../../feishu/mod.ts";

/** The chat kinds a record may carry. */
export type ChatType = "p2p" | "group" | "topic" | "unknown";

/** One raw mention entry of `event.message.mentions`. */
export interface RawMention {
  key: string;
  openId?: string;
  userId?: string;
  unionId?: string;
  name?: string;
  tenantKey?: string;
}

/** The fields of a raw message envelope, each checked and defaulted. */
export interface MessageFields {
  eventId?: string;
  messageId: string;
  chatId: string;
  /** Feishu's raw `chat_type` (`p2p`, `group`, `topic_group`, …) or "". */
  rawChatType: string;
  chatType: ChatType;
  threadId: string | null;
  messageType: string;
  /** The `content` JSON string as sent ("" when absent). */
  content: string;
  createTime?: string;
  parentId: string;
  rootId: string;
  senderOpenId: string;
  senderUserId: string | null;
  senderUnionId: string | null;
  /** Sender app id; only present on envelopes rebuilt from history. */
  senderAppId: string | null;
  senderType: string | null;
  mentions: RawMention[];
}

/**
 * Maps Feishu's chat kinds onto ours: `private`→`p2p`, `public`→`group`,
 * `topic_group`→`topic`; a group message that carries a `thread_id` is a topic
 * message; anything else is `unknown`.
 *
 * @example
 * ```ts
 * import { chatTypeOf } from "./envelope.ts";
 * import assert from "node:assert/strict";
 * assert.equal(chatTypeOf("group", "omt_1"), "topic");
 * assert.equal(chatTypeOf("private", null), "p2p");
 * assert.equal(chatTypeOf("", null), "unknown");
 * ```
 */
export function chatTypeOf(rawChatType: string, threadId: string | null): ChatType {
  switch (rawChatType) {
    case "p2p":
    case "private":
      return "p2p";
    case "group":
    case "public":
      return threadId ? "topic" : "group";
    case "topic":
    case "topic_group":
      return "topic";
    default:
      return "unknown";
  }
}

/**
 * Reads a message envelope. Returns undefined when it has no message id or
 * no chat id (nothing downstream can address such a message).
 *
 * @example
 * ```ts
 * import { readMessage } from "./envelope.ts";
 * import assert from "node:assert/strict";
 * const m = readMessage({ event: { message: { message_id: "om_1", chat_id: "oc_1", chat_type: "p2p" } } });
 * assert.equal(m?.chatType, "p2p");
 * assert.equal(m?.messageType, "text");
 * assert.equal(readMessage({}), undefined);
 * ```
 */
export function readMessage(envelope: RawEnvelope): MessageFields | undefined {
  const event = asObject(envelope.event) ?? {};
  const message = asObject(event.message) ?? {};
  const sender = asObject(event.sender) ?? {};
  const senderId = asObject(sender.sender_id) ?? {};
  const messageId = asText(message.message_id);
  const chatId = asText(message.chat_id);
  if (!messageId || !chatId) return undefined;
  const threadId = asText(message.thread_id) ?? null;
  const rawChatType = asText(message.chat_type) ?? "";
  return {
    eventId: asText(asObject(envelope.header)?.event_id),
    messageId,
    chatId,
    rawChatType,
    chatType: chatTypeOf(rawChatType, threadId),
    threadId,
    messageType: asText(message.message_type) ?? asText(message.msg_type) ?? "text",
    content: typeof message.content === "string" ? message.content : "",
    createTime: asText(message.create_time) ??
      (typeof message.create_time === "number" ? String(message.create_time) : undefined),
    parentId: asText(message.parent_id) ?? "",
    rootId: asText(message.root_id) ?? "",
    senderOpenId: asText(senderId.open_id) ?? "",
    senderUserId: asText(senderId.user_id) ?? null,
    senderUnionId: asText(senderId.union_id) ?? null,
    senderAppId: asText(senderId.app_id) ?? null,
    senderType: asText(sender.sender_type) ?? null,
    mentions: readMentions(message.mentions),
  };
}

/** Reads `mentions`, skipping entries without a key. */
function readMentions(value: unknown): RawMention[] {
  const out: RawMention[] = [];
  for (const item of asArray(value)) {
    const m = asObject(item);
    const key = asText(m?.key);
    if (!m || !key) continue;
    const id = asObject(m.id) ?? {};
    out.push({
      key,
      openId: asText(id.open_id),
      userId: asText(id.user_id),
      unionId: asText(id.union_id),
      name: asText(m.name),
      tenantKey: asText(m.tenant_key),
    });
  }
  return out;
}

/**
 * True when a mention is `@all` (key `@_all` or user id `all`).
 *
 * @example
 * ```ts
 * import { isMentionAll } from "./envelope.ts";
 * if (!isMentionAll({ key: "@_all" })) throw new Error();
 * ```
 */
export function isMentionAll(m: RawMention): boolean {
  return m.key === "@_all" || m.userId === "all";
}
