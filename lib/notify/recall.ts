/**
 * Notifications that a message the agent was woken for, and has not
 * answered, was withdrawn (recalled on Feishu): the LICC event (subject
 * `feishu withdrawn message from <name> via <alias>`, the chat's preview as
 * body, where the message now reads `[recalled]`) and the Claude channel push.
 * Neither carries the message's text.
 * @module
 */

import { type ChannelNotification, sanitiseMeta } from "./channel.ts";
import { type LiccEvent, liccSubject, wakeEvent } from "./licc.ts";
import type { ConversationPreview } from "./preview.ts";
import { safeLine } from "./safe_text.ts";
import type { IncomingMessageRecord } from "../store/mod.ts";

/** The key of a recall's notification (distinct from the message's own). */
export const recallKey = (record: Pick<IncomingMessageRecord, "id">): string =>
  `${record.id}#recalled`;

function sender(
  record: IncomingMessageRecord,
  contactName?: (openId: string) => string | null | undefined,
): string {
  return safeLine(
    record.from_name || (record.from_open_id && contactName?.(record.from_open_id)) ||
      record.from_open_id || "unknown",
  );
}

/**
 * What the agent reads: which message went, by whom and when, and that it
 * needs no answer.
 *
 * @example
 * ```ts
 * import { recallText } from "./recall.ts";
 * const t = recallText({ id: "main:oc_1:om_1", recalled: { at: "2026-08-03T09:15:02Z", by: "message_owner", removed: true } });
 * if (!t.startsWith("[withdrawn] message main:oc_1:om_1 was recalled (message_owner")) throw new Error(t);
 * ```
 */
export function recallText(record: Pick<IncomingMessageRecord, "id" | "recalled">): string {
  const r = record.recalled;
  const how = r ? ` (${r.by}, ${r.at})` : "";
  return `[withdrawn] message ${record.id} was recalled${how}; it needs no answer` +
    (r?.removed ? " and its text is gone" : "");
}

/**
 * The LICC event of a withdrawn message.
 *
 * @example
 * ```ts
 * import { buildRecallEvent } from "./recall.ts";
 * import assert from "node:assert/strict";
 * const record = {
 *   id: "main:oc_1:om_1", feishu_message_id: "om_1", chat_id: "oc_1", chat_type: "p2p" as const,
 *   thread_id: null, message_type: "text", from_open_id: "ou_a", from_user_id: null, from_union_id: null,
 *   from_name: "Ann", sender_type: "user", sender_is_bot: false, text: "[recalled]", date: "2026-08-03T09:15:02Z",
 *   parent_id: "", root_id: "", reply_to: null, mentions: [], content: { kind: "text" as const, text: "" },
 *   attachments: [], media: null, voice_transcript: null, feishu: {},
 *   recalled: { at: "2026-08-03T09:16:00Z", by: "message_owner", removed: true },
 * };
 * const e = buildRecallEvent(record, { alias: "main", preview: null, nowMs: 0 });
 * assert.equal(e.subject, "feishu withdrawn message from Ann via main");
 * assert.equal(e.metadata.recalled_message_ref, "main:oc_1:om_1");
 * ```
 */
export function buildRecallEvent(
  record: IncomingMessageRecord,
  options: {
    alias: string;
    preview: ConversationPreview | null;
    nowMs: number;
    contactName?: (openId: string) => string | null | undefined;
  },
): LiccEvent {
  const from = sender(record, options.contactName);
  const metadata: Record<string, unknown> = {
    message_id: recallKey(record),
    account: options.alias,
    chat_id: record.chat_id,
    chat_type: record.chat_type,
    thread_id: record.thread_id,
    from_open_id: record.from_open_id,
    platform: "feishu",
    conversation_ref: `${options.alias}:${record.chat_id}`,
    recalled_message_ref: record.id,
    recalled: record.recalled ?? null,
    message_type: "recalled",
  };
  return wakeEvent({
    from,
    subject: liccSubject(from, { alias: options.alias, what: "withdrawn message" }),
    metadata,
    preview: options.preview,
    text: recallText(record),
    nowMs: options.nowMs,
  });
}

/**
 * The channel push of a withdrawn message: the notice as content,
 * `recalled_message_id` naming the message.
 *
 * @example
 * ```ts
 * import { buildRecallChannel } from "./recall.ts";
 * const n = buildRecallChannel({
 *   id: "main:oc_1:om_1", feishu_message_id: "om_1", chat_id: "oc_1", chat_type: "p2p", thread_id: null,
 *   message_type: "text", from_open_id: "ou_a", from_user_id: null, from_union_id: null, from_name: "Ann",
 *   sender_type: "user", sender_is_bot: false, text: "[recalled]", date: "2026-08-03T09:15:02Z", parent_id: "",
 *   root_id: "", reply_to: null, mentions: [], content: { kind: "text", text: "" }, attachments: [],
 *   media: null, voice_transcript: null, feishu: {},
 * }, { alias: "main" });
 * if (n.meta.recalled_message_id !== "main:oc_1:om_1" || n.meta.message_type !== "recalled") throw new Error();
 * ```
 */
export function buildRecallChannel(
  record: IncomingMessageRecord,
  options: { alias: string; contactName?: (openId: string) => string | null | undefined },
): ChannelNotification {
  const meta: Record<string, string> = {
    account: options.alias,
    message_id: recallKey(record),
    recalled_message_id: record.id,
    chat_id: record.chat_id,
    chat_type: record.chat_type,
    message_type: "recalled",
    ts: record.recalled?.at ?? record.date,
    user: sender(record, options.contactName),
  };
  if (record.thread_id) meta.thread_id = record.thread_id;
  if (record.from_open_id) meta.open_id = record.from_open_id;
  if (record.recalled) meta.recalled_by = record.recalled.by;
  const safe: Record<string, string> = {};
  for (const [k, v] of Object.entries(meta)) if (v) safe[k] = sanitiseMeta(v);
  return { content: safeLine(recallText(record)), meta: safe };
}
