/**
 * Complete records for tests. Test-only.
 * @module
 */

import type { IncomingMessageRecord, SentMessageRecord } from "../record_types.ts";

/** A complete incoming message record with sensible defaults. */
export function incomingRecord(
  messageId: string,
  extra: Partial<IncomingMessageRecord> = {},
): IncomingMessageRecord {
  const chat = extra.chat_id ?? "oc_chat";
  return {
    id: `main:${chat}:${messageId}`,
    feishu_message_id: messageId,
    chat_id: chat,
    chat_type: "p2p",
    thread_id: null,
    message_type: "text",
    from_open_id: "ou_alice",
    from_user_id: null,
    from_union_id: null,
    from_name: "Alice",
    sender_type: "user",
    sender_is_bot: false,
    text: `text of ${messageId}`,
    date: "2026-08-03T09:14:00Z",
    parent_id: "",
    root_id: "",
    reply_to: null,
    mentions: [],
    content: { kind: "text", text: `text of ${messageId}` },
    attachments: [],
    media: null,
    voice_transcript: null,
    feishu: { schema: "2.0", header: { event_id: `ev_${messageId}` } },
    ...extra,
  };
}

/** A complete sent record of one chunk with sensible defaults. */
export function sentRecordOf(
  id: string,
  extra: Partial<SentMessageRecord> = {},
): SentMessageRecord {
  const [, chat = "oc_chat", message = "om_0"] = id.split(":");
  return {
    id,
    feishu_message_id: message,
    feishu_message_ids: [message],
    message_ids: [id],
    chunks: [{ index: 1, message_id: id }],
    to: { receive_id: chat, receive_id_type: "chat_id" },
    chat_id: chat,
    message_type: "text",
    content: { type: "text", text: "sent" },
    text: "sent",
    sent_at: "2026-08-03T09:14:00Z",
    date: "2026-08-03T09:14:00Z",
    status: "sent",
    ...extra,
  };
}
