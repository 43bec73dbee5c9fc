/**
 * Notifications of a business card callback: the LICC event (subject
 * `feishu card action from <name> via <alias>`, the chat's preview as body,
 * the callback as the current message) and the Claude channel push (the
 * record text as content; the card to edit named in `meta`).
 * @module
 */

import { type ChannelNotification, sanitiseMeta } from "./channel.ts";
import { type LiccEvent, liccSubject, wakeEvent } from "./licc.ts";
import type { ConversationPreview } from "./preview.ts";
import { safeBody, safeLine } from "./safe_text.ts";
import type { CardActionRecord } from "../store/mod.ts";

/** The clicker's display name: their name, the contact's name, their open_id. */
function displayName(
  record: CardActionRecord,
  contactName?: (openId: string) => string | null | undefined,
): string {
  return safeLine(
    record.from_name || (record.from_open_id && contactName?.(record.from_open_id)) ||
      record.from_open_id || "unknown",
  );
}

/**
 * The LICC event of a business callback.
 *
 * @example
 * ```ts
 * import { buildCardActionEvent } from "./card_action.ts";
 * import assert from "node:assert/strict";
 * const record = {
 *   id: "main:oc_1:callback-ev_1", feishu_event_id: "ev_1", chat_id: "oc_1", message_type: "card_action" as const,
 *   from_open_id: "ou_a", from_name: null, text: '[card action: button] {"a": 1}', date: "2026-08-03T09:15:02Z",
 *   synthetic: true as const, card_action: {}, thread_id: null, source_message_id: "om_card",
 *   source_message_ref: "main:oc_1:om_card",
 * };
 * const e = buildCardActionEvent(record, { alias: "main", preview: null, nowMs: 0 });
 * assert.equal(e.subject, "feishu card action from ou_a via main");
 * assert.equal(e.metadata.message_type, "card_action");
 * assert.equal(e.wake, true);
 * ```
 */
export function buildCardActionEvent(
  record: CardActionRecord,
  options: {
    alias: string;
    preview: ConversationPreview | null;
    nowMs: number;
    contactName?: (openId: string) => string | null | undefined;
  },
): LiccEvent {
  const from = displayName(record, options.contactName);
  const metadata: Record<string, unknown> = {
    message_id: record.id,
    account: options.alias,
    chat_id: record.chat_id,
    chat_type: "unknown",
    thread_id: record.thread_id ?? null,
    from_open_id: record.from_open_id,
    platform: "feishu",
    conversation_ref: `${options.alias}:${record.chat_id}`,
    message_ref: record.id,
    source_message_ref: record.source_message_ref ?? null,
    message_type: "card_action",
  };
  return wakeEvent({
    from,
    subject: liccSubject(from, { alias: options.alias, what: "card action" }),
    metadata,
    preview: options.preview,
    text: record.text,
    nowMs: options.nowMs,
  });
}

/**
 * The channel push of a business callback: `meta.source_message_id` is the
 * card to `edit`; `message_id` is the callback's own record (not a message
 * to reply to).
 *
 * @example
 * ```ts
 * import { buildCardActionChannel } from "./card_action.ts";
 * const n = buildCardActionChannel({
 *   id: "main:oc_1:callback-ev_1", feishu_event_id: "ev_1", chat_id: "oc_1", message_type: "card_action",
 *   from_open_id: "ou_a", from_name: "Ann", text: "[card action: button] {}", date: "2026-08-03T09:15:02Z",
 *   synthetic: true, card_action: {}, thread_id: null, source_message_id: "om_card",
 *   source_message_ref: "main:oc_1:om_card",
 * }, { alias: "main" });
 * if (n.meta.source_message_id !== "main:oc_1:om_card" || n.meta.user !== "Ann") throw new Error();
 * ```
 */
export function buildCardActionChannel(
  record: CardActionRecord,
  options: { alias: string; contactName?: (openId: string) => string | null | undefined },
): ChannelNotification {
  const meta: Record<string, string> = {
    account: options.alias,
    message_id: record.id,
    chat_id: record.chat_id,
    chat_type: "unknown",
    message_type: "card_action",
    ts: record.date,
    open_id: record.from_open_id,
    user: displayName(record, options.contactName),
  };
  if (typeof record.thread_id === "string" && record.thread_id) meta.thread_id = record.thread_id;
  if (typeof record.source_message_ref === "string") {
    meta.source_message_id = record.source_message_ref;
  }
  const safe: Record<string, string> = {};
  for (const [k, v] of Object.entries(meta)) if (v) safe[k] = sanitiseMeta(v);
  return { content: safeBody(record.text), meta: safe };
}
