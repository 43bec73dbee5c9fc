/**
 * Structured preview items: one per window record, safe to hand
 * to the agent — no content unions, no raw envelopes, no file keys, no
 * outbound source paths. Every user-supplied string is neutralised: the
 * sender, file names, errors and mention names on one line, the text with
 * each continuation line prefixed (see `safe_text.ts`); paths stay exact.
 * @module
 */

import { formatCompoundId, truncateCodePoints } from "../core/mod.ts";
import type {
  Attachment,
  IncomingMessageRecord,
  ReplyParent,
  SentMessageRecord,
} from "../store/mod.ts";
import { relativeTime } from "./relative_time.ts";
import { safeDeep, safeIndentedBody, safeLine } from "./safe_text.ts";

/** Cap of an item's text, in code points. */
export const ITEM_TEXT_CHARS = 500;
/** Mentions kept per item. */
export const ITEM_MENTIONS = 20;
/** Attachments projected on the current item. */
export const ITEM_ATTACHMENTS = 8;

/**
 * The fields a preview reads, as the store's record types declare them:
 * every record kind the store holds (inbound, sent, events, card clicks)
 * fits it.
 */
export type PreviewRecord =
  & Pick<IncomingMessageRecord, "id">
  & Partial<
    Pick<
      IncomingMessageRecord,
      | "text"
      | "date"
      | "from_name"
      | "from_open_id"
      | "message_type"
      | "thread_id"
      | "mentions"
      | "parent_id"
      | "reply_to"
      | "reply_to_message"
      | "media"
      | "attachments"
      | "voice_transcript"
    >
  >
  & Partial<Pick<SentMessageRecord, "sent_at" | "task_card" | "message_ids">>;

/** What the agent sees of a reply's parent. */
export interface ParentProjection {
  sender?: string;
  date?: string;
  text?: string;
  unreadable?: true;
  error?: string;
}

/** The attachment fields both a preview reads and the agent may see. */
interface AttachmentFields {
  type?: string;
  status?: string;
  size?: number;
  duration_ms?: number;
  role?: string;
  transcription_status?: string;
  filename?: string;
  path?: string;
  error?: string;
  transcription_error?: string;
}

/** A record and which way it went. */
export interface PreviewEntry {
  direction: "incoming" | "outgoing";
  record: PreviewRecord;
}

/** What the agent may see of one attachment. */
export interface AttachmentProjection extends AttachmentFields {
  path_truncated?: true;
}

/** One structured item of `recent_messages` / `latest_incoming`. */
export interface PreviewItem {
  id: string;
  direction: "incoming" | "outgoing";
  sender: string;
  date: string;
  relative_time: string;
  text: string;
  text_truncated: boolean;
  type?: string;
  thread_id?: string;
  mentions?: unknown[];
  mentions_truncated?: true;
  is_current: boolean;
  media?: Record<string, unknown>;
  attachments?: AttachmentProjection[];
  attachments_truncated?: true;
  comment?: string;
  parent_id?: string;
  reply_to?: string;
  reply_to_preview?: ParentProjection;
  is_voice_transcript?: true;
}

/** Shared inputs of the projections. */
export interface ItemContext {
  alias: string;
  chatId: string;
  nowMs: number;
  contactName?: (openId: string) => string | null | undefined;
}

/** Guidance added when the current message has downloaded files. */
export const DOWNLOADED_COMMENT =
  "Files from this message were saved locally: inspect the listed paths before answering whenever the request depends on what they contain.";
/** Guidance added when a download of the current message failed. */
export const FAILED_COMMENT =
  "Some attachments could not be downloaded: call feishu.read for this message to see the preserved descriptor, and tell the user about the limitation.";

/**
 * `me` for outgoing records; else the record's name, the contact name, the
 * open_id, or `unknown`, on one line and tag-safe.
 *
 * @example
 * ```ts
 * import { displaySender } from "./items.ts";
 * import assert from "node:assert/strict";
 * assert.equal(displaySender({ direction: "outgoing", record: { id: "x" } }), "me");
 * assert.equal(displaySender({ direction: "incoming", record: { id: "x", from_open_id: "ou_a" } }), "ou_a");
 * assert.equal(displaySender({ direction: "incoming", record: { id: "x" } }), "unknown");
 * assert.equal(displaySender({ direction: "incoming", record: { id: "x", from_name: "<A>\nme: ok" } }), "‹A› me: ok");
 * ```
 */
export function displaySender(
  entry: PreviewEntry,
  contactName?: (openId: string) => string | null | undefined,
): string {
  if (entry.direction === "outgoing") return "me";
  const r = entry.record;
  return safeLine(
    r.from_name || (r.from_open_id && contactName?.(r.from_open_id)) || r.from_open_id ||
      "unknown",
  );
}

/**
 * The record text, or `[<media type>]` when the text is empty and there is media.
 *
 * @example
 * ```ts
 * import { displayText } from "./items.ts";
 * if (displayText({ id: "x", text: "", media: { type: "image" } }) !== "[image]") throw new Error();
 * ```
 */
export function displayText(record: PreviewRecord): string {
  if (record.text) return record.text;
  return record.media?.type ? `[${record.media.type}]` : "";
}

/**
 * The date of a record: `date`, else `sent_at`, else "".
 *
 * @example
 * ```ts
 * import { recordDate } from "./items.ts";
 * if (recordDate({ id: "x", sent_at: "2026-08-03T09:15:00Z" }) !== "2026-08-03T09:15:00Z") throw new Error();
 * ```
 */
export function recordDate(record: PreviewRecord): string {
  return record.date || record.sent_at || "";
}

/**
 * Builds the structured item of one window record; only the current item
 * carries attachments and the attachment comment.
 *
 * @example
 * ```ts
 * import { previewItem } from "./items.ts";
 * import assert from "node:assert/strict";
 * const item = previewItem(
 *   { direction: "incoming", record: { id: "main:oc_1:om_2", text: "ok", parent_id: "om_1", date: "2026-08-03T09:00:00Z" } },
 *   { alias: "main", chatId: "oc_1", nowMs: Date.parse("2026-08-03T09:30:00Z"), isCurrent: true },
 * );
 * assert.equal(item.relative_time, "30 min ago");
 * assert.equal(item.reply_to, "main:oc_1:om_1");
 * ```
 */
export function previewItem(
  entry: PreviewEntry,
  options: ItemContext & { isCurrent: boolean },
): PreviewItem {
  const r = entry.record;
  const full = safeIndentedBody(displayText(r));
  const text = truncateCodePoints(full, ITEM_TEXT_CHARS);
  const date = recordDate(r);
  const item: PreviewItem = {
    id: r.id,
    direction: entry.direction,
    sender: displaySender(entry, options.contactName),
    date,
    relative_time: relativeTime(date, options.nowMs),
    text,
    text_truncated: text !== full,
    is_current: options.isCurrent,
  };
  if (r.message_type) item.type = r.message_type;
  if (r.thread_id) item.thread_id = r.thread_id;
  const mentions = r.mentions ?? [];
  if (mentions.length > 0) item.mentions = mentions.slice(0, ITEM_MENTIONS).map(safeDeep);
  if (mentions.length > ITEM_MENTIONS) item.mentions_truncated = true;
  const media = mediaProjection(r.media);
  if (media) item.media = media;
  if (options.isCurrent) Object.assign(item, attachmentFields(r.attachments ?? []));
  if (r.parent_id) {
    item.parent_id = r.parent_id;
    item.reply_to = formatCompoundId(options.alias, options.chatId, r.parent_id);
    const parent = parentProjection(r.reply_to_message);
    if (parent) item.reply_to_preview = parent;
  }
  if (r.voice_transcript) item.is_voice_transcript = true;
  return item;
}

/**
 * A reply's parent as the agent sees it: sender, date and one line of text,
 * every string neutralised; or `unreadable` with the reason.
 *
 * @example
 * ```ts
 * import { parentProjection } from "./items.ts";
 * import assert from "node:assert/strict";
 * const id = "main:oc_1:om_1";
 * assert.deepEqual(parentProjection({ id, source: "feishu", from_name: "Ann", text: "hi" }), { sender: "Ann", text: "hi" });
 * assert.deepEqual(parentProjection({ id, source: "unreadable", error: "no" }), { unreadable: true, error: "no" });
 * ```
 */
export function parentProjection(
  p: ReplyParent | null | undefined,
): ParentProjection | undefined {
  if (!p) return undefined;
  if (p.source === "unreadable") {
    return { unreadable: true, ...(p.error ? { error: safeLine(p.error) } : {}) };
  }
  const out: ParentProjection = {};
  const who = p.from_name || (p.sender_type === "app" ? "bot" : p.from_id);
  if (who) out.sender = safeLine(who);
  if (p.date) out.date = p.date;
  if (p.text) out.text = safeLine(p.text);
  return out;
}

const MEDIA_KEYS = ["type", "filename", "size"] as const;

function mediaProjection(media: PreviewRecord["media"]): Record<string, unknown> | undefined {
  if (!media) return undefined;
  const out: Record<string, unknown> = {};
  for (const key of MEDIA_KEYS) if (media[key] != null) out[key] = safeDeep(media[key]);
  return Object.keys(out).length > 0 ? out : undefined;
}

/** `attachments`, `attachments_truncated` and `comment` of the current item. */
function attachmentFields(
  list: readonly Attachment[],
): Pick<PreviewItem, "attachments" | "attachments_truncated" | "comment"> {
  if (list.length === 0) return {};
  const out: Pick<PreviewItem, "attachments" | "attachments_truncated" | "comment"> = {
    attachments: list.slice(0, ITEM_ATTACHMENTS).map((a) => projectAttachment(a)),
  };
  if (list.length > ITEM_ATTACHMENTS) out.attachments_truncated = true;
  const comments = [];
  if (list.some((a) => a.status === "downloaded" && a.path)) comments.push(DOWNLOADED_COMMENT);
  if (list.some((a) => a.status === "failed")) comments.push(FAILED_COMMENT);
  if (comments.length > 0) out.comment = comments.join(" ");
  return out;
}

/**
 * One attachment as the agent may see it: only non-null `type`, `status`,
 * `size`, `duration_ms`, `role`, `transcription_status`, `filename` (≤ 180),
 * `path` (≤ `maxPath`, flagged when cut), `error` and `transcription_error`
 * (≤ `maxError`). Never a file key. Strings other than the path are put on
 * one line, tag-safe.
 *
 * @example
 * ```ts
 * import { projectAttachment } from "./items.ts";
 * import assert from "node:assert/strict";
 * const stored = { type: "file", file_key: "k", file_name: "r.txt", status: "failed", error: "gone" } as const;
 * assert.deepEqual(
 *   projectAttachment(stored),
 *   { type: "file", status: "failed", filename: "r.txt", error: "gone" },
 * );
 * ```
 */
export function projectAttachment(
  a: Attachment,
  limits: { maxPath?: number; maxError?: number } = {},
): AttachmentProjection {
  const maxPath = limits.maxPath ?? 1024;
  const maxError = limits.maxError ?? 200;
  const out: AttachmentProjection = {};
  if (a.type != null) out.type = safeLine(a.type);
  if (a.status != null) out.status = safeLine(a.status);
  const done = a.status === "downloaded" ? a : null;
  const failed = a.status === "failed" ? a : null;
  if (done?.size != null) out.size = done.size;
  if (a.duration_ms != null) out.duration_ms = a.duration_ms;
  if (a.role != null) out.role = safeLine(a.role);
  if (a.transcription_status != null) out.transcription_status = safeLine(a.transcription_status);
  const filename = done?.filename ?? a.file_name;
  if (filename != null) out.filename = cut(safeLine(filename), 180);
  if (done?.path != null) {
    out.path = cut(done.path, maxPath);
    if (out.path !== done.path) out.path_truncated = true;
  }
  if (failed?.error != null) out.error = cut(safeLine(failed.error), maxError);
  if (a.transcription_error != null) {
    out.transcription_error = cut(safeLine(a.transcription_error), maxError);
  }
  return out;
}

function cut(s: string, max: number): string {
  return Array.from(s).slice(0, max).join("");
}
