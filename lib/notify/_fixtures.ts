/**
 * Records for the notification tests. Test-only.
 * @module
 */

import type { InboundRecord } from "../inbound/mod.ts";
import type { PreviewEntry, PreviewRecord } from "./items.ts";

/** The test chat. */
export const CHAT = "oc_chat";
/** 2026-08-03T09:15:00Z. */
export const NOW = Date.parse("2026-08-03T09:15:00Z");

/** An inbound record with sensible defaults. */
export function inbound(messageId: string, extra: Partial<InboundRecord> = {}): InboundRecord {
  return {
    id: `main:${CHAT}:${messageId}`,
    feishu_message_id: messageId,
    chat_id: CHAT,
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

/** An incoming preview entry. */
export function incoming(record: InboundRecord): PreviewEntry {
  return { direction: "incoming", record };
}

/** An outgoing preview entry for a sent record. */
export function outgoing(messageId: string, extra: Partial<PreviewRecord> = {}): PreviewEntry {
  return {
    direction: "outgoing",
    record: {
      id: `main:${CHAT}:${messageId}`,
      message_ids: [`main:${CHAT}:${messageId}`],
      message_type: "post",
      text: `sent ${messageId}`,
      sent_at: "2026-08-03T09:14:00Z",
      date: "2026-08-03T09:14:00Z",
      ...extra,
    },
  };
}

/** Minute `m` after 09:00 on the test day, as a record date. */
export function at(m: number): string {
  return new Date(Date.parse("2026-08-03T09:00:00Z") + m * 60_000).toISOString().replace(
    ".000Z",
    "Z",
  );
}
