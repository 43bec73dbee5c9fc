import type { RawEnvelope } from "../../feishu/mod.ts";
/**
 * Raw payloads for the inbound tests, shaped exactly as Feishu sends them
 * (the v2 event envelope: `schema`, `header`, `event`): builders fill the
 * envelope around the parts a test cares about. Test-only; nothing in
 * production imports this file.
 * @module
 */

/** The bot of every fixture. */
export const BOT_OPEN_ID = "ou_bot0000000000000000000000000001";
/** This app's id in every fixture. */
export const BOT_APP_ID = "cli_a1b2c3d4e5f6a7b8";
/** 2026-08-03T09:15:02Z in ms. */
export const CREATED_MS = 1785748502000;

/** Parts of a receive event a test may set. */
export interface ReceiveParts {
  eventId?: string;
  messageId?: string;
  chatId?: string;
  chatType?: string;
  threadId?: string;
  rootId?: string;
  parentId?: string;
  messageType?: string;
  /** The content object (serialised to the JSON string Feishu sends). */
  content?: unknown;
  /** Raw content string, used as-is (for malformed content). */
  rawContent?: string;
  mentions?: unknown[];
  senderOpenId?: string;
  senderType?: string;
  createTime?: string;
}

/** An `im.message.receive_v1` envelope. */
export function receiveEnvelope(parts: ReceiveParts = {}): RawEnvelope {
  const createTime = parts.createTime ?? String(CREATED_MS);
  const message: Record<string, unknown> = {
    message_id: parts.messageId ?? "om_5ce6d572455d361153b7cb51da133945",
    create_time: createTime,
    update_time: createTime,
    chat_id: parts.chatId ?? "oc_5ce6d572455d361153b7xx51da133945",
    chat_type: parts.chatType ?? "p2p",
    message_type: parts.messageType ?? "text",
    content: parts.rawContent ?? JSON.stringify(parts.content ?? { text: "hello" }),
    user_agent: "Mozilla/5.0",
  };
  if (parts.rootId) message.root_id = parts.rootId;
  if (parts.parentId) message.parent_id = parts.parentId;
  if (parts.threadId) message.thread_id = parts.threadId;
  if (parts.mentions) message.mentions = parts.mentions;
  return {
    schema: "2.0",
    header: {
      event_id: parts.eventId ?? "5e3702a84e847582be8db7fb73283c02",
      event_type: "im.message.receive_v1",
      create_time: createTime,
      token: "",
      app_id: BOT_APP_ID,
      tenant_key: "2ca1d211f64f6438",
    },
    event: {
      sender: {
        sender_id: {
          union_id: "on_8ed6aa67826108097d9ee143816345",
          user_id: "e33ggbyz",
          open_id: parts.senderOpenId ?? "ou_84aad35d084aa403a838cf73ee18467",
        },
        sender_type: parts.senderType ?? "user",
        tenant_key: "2ca1d211f64f6438",
      },
      message,
    },
  };
}

/** A raw mention entry. */
export function mention(key: string, openId: string, name: string): Record<string, unknown> {
  return {
    key,
    id: { union_id: `on_${openId.slice(3)}`, user_id: "", open_id: openId },
    name,
    tenant_key: "2ca1d211f64f6438",
  };
}

/** A passive event envelope of the given type with the given `event` body. */
export function eventEnvelope(
  eventType: string,
  event: Record<string, unknown>,
  options: { eventId?: string | null; createTime?: string } = {},
): RawEnvelope {
  const header: Record<string, unknown> = {
    event_type: eventType,
    create_time: options.createTime ?? "1785680002000",
    token: "",
    app_id: BOT_APP_ID,
    tenant_key: "2ca1d211f64f6438",
  };
  if (options.eventId !== null) header.event_id = options.eventId ?? `ev_${eventType}`;
  return { schema: "2.0", header, event };
}
