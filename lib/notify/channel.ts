/**
 * The Claude Code channel push (`notifications/claude/channel`): params built
 * from an inbound record. `content` is what the model reads; `meta` is a flat
 * map of strings rendered as attributes of the `<channel>` tag, so every value
 * a user controls is stripped of tag delimiters, and local file paths appear
 * only there. `content` is the message itself: `<` and `>` become `‹` and `›`
 * (it can never close or open the enclosing tag) and every kind of line break
 * becomes LF. The MCP wiring lives in `lib/mcp/`.
 * @module
 */

import type { Attachment, IncomingMessageRecord } from "../store/mod.ts";
import { safeBody, safeLine } from "./safe_text.ts";

/** Attachments described in `meta`. */
export const CHANNEL_ATTACHMENTS = 8;

/** Params of one `notifications/claude/channel` notification. */
export interface ChannelNotification {
  content: string;
  meta: Record<string, string>;
}

/** Options of {@link buildChannelNotification}. */
export interface ChannelOptions {
  alias: string;
  contactName?: (openId: string) => string | null | undefined;
}

// Tag delimiters and attribute quotes: a sender could forge attributes or
// close the tag with any of them.
const UNSAFE = /[<>\[\];"]/g;

/**
 * Makes a value safe for a `<channel>` attribute: `< > [ ] ; "` become `_`,
 * every line break (CR, LF, CRLF, VT, FF, NEL, U+2028, U+2029) and other
 * control character a space.
 *
 * @example
 * ```ts
 * import { sanitiseMeta } from "./channel.ts";
 * if (sanitiseMeta('a<b>[c];"d"\r\ne') !== "a_b__c___d_ e") throw new Error();
 * if (sanitiseMeta("a\u2028b\rc") !== "a b c") throw new Error();
 * ```
 */
export function sanitiseMeta(value: string): string {
  return safeLine(value.replace(UNSAFE, "_"));
}

/**
 * Builds the channel params of an admitted (and downloaded) inbound record.
 *
 * @example
 * ```ts
 * import { buildChannelNotification } from "./channel.ts";
 * import assert from "node:assert/strict";
 * const n = buildChannelNotification({
 *   id: "main:oc_1:om_1", feishu_message_id: "om_1", chat_id: "oc_1", chat_type: "p2p", thread_id: null,
 *   message_type: "text", from_open_id: "ou_a", from_user_id: null, from_union_id: null, from_name: "Ann <x>",
 *   sender_type: "user", sender_is_bot: false, text: "hi", date: "2026-08-03T09:15:02Z", parent_id: "",
 *   root_id: "", reply_to: null, mentions: [], content: { kind: "text", text: "hi" }, attachments: [],
 *   media: null, voice_transcript: null, feishu: {},
 * }, { alias: "main" });
 * assert.equal(n.content, "hi");
 * assert.equal(n.meta.user, "Ann _x_");
 * assert.equal(n.meta.message_id, "main:oc_1:om_1");
 * ```
 */
export function buildChannelNotification(
  record: IncomingMessageRecord,
  options: ChannelOptions,
): ChannelNotification {
  const name = record.from_name ||
    (record.from_open_id && options.contactName?.(record.from_open_id)) || "";
  const meta: Record<string, string> = {
    account: options.alias,
    message_id: record.id,
    chat_id: record.chat_id,
    chat_type: record.chat_type,
    message_type: record.message_type,
    ts: record.date,
  };
  if (record.thread_id) meta.thread_id = record.thread_id;
  if (record.from_open_id) meta.open_id = record.from_open_id;
  if (name) meta.user = name;
  if (record.reply_to) meta.reply_to_message_id = record.reply_to;
  Object.assign(meta, parentMeta(record));
  if (record.voice_transcript) meta.voice_transcript = "true";
  Object.assign(meta, attachmentMeta(record.attachments));
  const safe: Record<string, string> = {};
  for (const [key, value] of Object.entries(meta)) safe[key] = sanitiseMeta(value);
  return { content: channelContent(record), meta: safe };
}

/** `reply_to_user` and `reply_to_text` of a reply, or `reply_to_unreadable` with the reason. */
function parentMeta(record: IncomingMessageRecord): Record<string, string> {
  const p = record.reply_to_message;
  if (!p) return {};
  if (p.source === "unreadable") return { reply_to_unreadable: p.error || "unreadable" };
  const meta: Record<string, string> = {};
  const who = p.from_name || (p.sender_type === "app" ? "bot" : p.from_id);
  if (who) meta.reply_to_user = who;
  if (p.text) meta.reply_to_text = p.text;
  return meta;
}

/** The text, or a short note naming the attachments when there is none. */
function channelContent(record: IncomingMessageRecord): string {
  if (record.text.trim() !== "") return safeBody(record.text);
  const kinds = record.attachments.map((a) => a.type);
  if (kinds.length > 0) {
    return safeLine(`[${kinds.join(", ")} attached; see the attachment attributes]`);
  }
  return safeLine(`[${record.message_type} message]`);
}

/** Indexed `attachment_<n>_*` keys for the first eight attachments. */
function attachmentMeta(list: readonly Attachment[]): Record<string, string> {
  if (list.length === 0) return {};
  const meta: Record<string, string> = { attachment_count: String(list.length) };
  for (const [i, a] of list.slice(0, CHANNEL_ATTACHMENTS).entries()) {
    const p = `attachment_${i + 1}_`;
    meta[`${p}kind`] = a.role === "cover" ? `${a.type} (cover)` : a.type;
    meta[`${p}status`] = a.status;
    if (a.status === "downloaded") {
      meta[`${p}path`] = a.path;
      meta[`${p}name`] = a.filename;
      meta[`${p}size`] = String(a.size);
    } else {
      if (a.file_name) meta[`${p}name`] = a.file_name;
      meta[`${p}error`] = a.error;
    }
    if (a.transcription_status) meta[`${p}transcription`] = a.transcription_status;
  }
  return meta;
}
