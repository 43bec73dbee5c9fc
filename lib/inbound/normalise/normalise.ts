/**
 * Normalisation: a raw `im.message.receive_v1` envelope in, the inbound
 * record out (attachments, `media` and the transcript are filled by the
 * later stages), plus the message's attachment descriptors.
 *
 * Steps: read the envelope → measure the content's nesting (too deep: a
 * placeholder record, see {@link normaliseUnreadable}) → build the mention table → convert the content
 * through the registry → resolve mentions (this bot's own mention is dropped
 * from `text` only) → tidy whitespace → derive ids, dates and flags.
 * @module
 */

import { formatCompoundId, isoSeconds } from "../../core/mod.ts";
import { buildDescriptors } from "../attachments/mod.ts";
import { contentTooDeep } from "./_depth.ts";
import { parseJson } from "./_json.ts";
import { epochSeconds } from "./_format.ts";
import { tidyBodyText } from "./_whitespace.ts";
import { readMessage } from "./envelope.ts";
import { MentionTable } from "./mentions.ts";
import { convertContent, type ConvertResult } from "./registry.ts";
import type { MessageFields } from "./envelope.ts";
import type { Conversion } from "./types.ts";
import type {
  AttachmentDescriptor,
  IncomingMessageRecord,
  MessageContent,
} from "../../store/mod.ts";
import type { RawEnvelope } from "../../feishu/mod.ts";

/** A message this late (or backfilled) is flagged with `delayed_seconds`. */
export const DELAYED_AFTER_SECONDS = 30 * 60;

/** The longest `error` a record carries (longer reasons are cut). */
export const MAX_RECORD_ERROR_CHARS = 300;

/**
 * The text of a message that could not be read, for a reason.
 *
 * @example
 * ```ts
 * import { unreadableText } from "./normalise.ts";
 * if (unreadableText("bad") !== "[message could not be read: bad]") throw new Error();
 * ```
 */
export function unreadableText(reason: string): string {
  return `[message could not be read: ${boundedError(reason)}]`;
}

/** A reason cut to {@link MAX_RECORD_ERROR_CHARS} characters. */
export function boundedError(reason: string): string {
  const one = reason.replace(/\s+/g, " ").trim();
  return one.length <= MAX_RECORD_ERROR_CHARS
    ? one
    : one.slice(0, MAX_RECORD_ERROR_CHARS - 1) + "…";
}

/** What normalisation needs besides the envelope. */
export interface NormaliseContext {
  /** Account alias (first part of compound ids). */
  alias: string;
  /** This bot's open_id; null when not known yet. */
  botOpenId?: string | null;
  /** Processing time in ms (the injected clock's now). */
  nowMs: number;
  /** Display name of a user from the contact cache, if known. */
  contactName?: (openId: string) => string | null | undefined;
}

/** The record and what the next stages need. */
export interface NormalisedMessage {
  record: IncomingMessageRecord;
  /** The attachments to download, in record order. */
  descriptors: AttachmentDescriptor[];
  /** Set when the registered converter threw and the fallback was used. */
  converterError?: string;
}

/**
 * Normalises one message envelope. Returns undefined when the envelope has
 * no message id or chat id.
 *
 * @example A group message addressed to the bot
 * ```ts
 * import { normaliseMessage } from "./normalise.ts";
 * import assert from "node:assert/strict";
 * const out = normaliseMessage({
 *   schema: "2.0",
 *   header: { event_id: "ev1", event_type: "im.message.receive_v1", create_time: "1735700000000" },
 *   event: {
 *     sender: { sender_id: { open_id: "ou_a" }, sender_type: "user" },
 *     message: {
 *       message_id: "om_1", chat_id: "oc_1", chat_type: "group", message_type: "text",
 *       create_time: "1735700000000", content: '{"text":"@_user_1  hello"}',
 *       mentions: [{ key: "@_user_1", id: { open_id: "ou_bot" }, name: "Bot" }],
 *     },
 *   },
 * }, { alias: "main", botOpenId: "ou_bot", nowMs: 1735700001000 });
 * assert.equal(out?.record.id, "main:oc_1:om_1");
 * assert.equal(out?.record.text, "hello");
 * assert.deepEqual(out?.record.content, { kind: "text", text: "@Bot  hello" });
 * assert.equal(out?.record.date, "2025-01-01T02:53:20Z");
 * ```
 */
export function normaliseMessage(
  envelope: RawEnvelope,
  ctx: NormaliseContext,
): NormalisedMessage | undefined {
  const m = readMessage(envelope);
  if (!m) return undefined;
  // Measured on the text, before anything parses or walks it.
  const tooDeep = contentTooDeep(m.content);
  if (tooDeep !== undefined) return unreadable(m, envelope, ctx, tooDeep);
  const table = new MentionTable(m.mentions, { botOpenId: ctx.botOpenId });
  const { conversion, converterError }: ConvertResult = convertContent(
    { messageType: m.messageType, content: m.content },
    { context: { mention: (id, name) => table.placeholder(id, name) } },
  );
  const record = buildRecord(m, envelope, ctx, table, conversion);
  const descriptors = buildDescriptors(conversion.resources, {
    messageType: m.messageType,
    content: parseJson(m.content),
  });
  if (converterError === undefined) return { record, descriptors };
  record.error = boundedError(converterError);
  return { record, descriptors, converterError };
}

/**
 * The record of a message that could not be read: its ids, sender and raw
 * envelope as sent, `content` of kind `unknown`, a placeholder `text` naming
 * the reason and the reason as `error`. Builds from the envelope's flat
 * fields only, so it works whatever the content holds. Undefined when the
 * envelope has no message id or chat id.
 *
 * @example
 * ```ts
 * import { normaliseUnreadable } from "./normalise.ts";
 * const out = normaliseUnreadable({
 *   header: { event_type: "im.message.receive_v1" },
 *   event: { message: { message_id: "om_1", chat_id: "oc_1", chat_type: "p2p", message_type: "post", content: "[[[" } },
 * }, { alias: "main", nowMs: 0 }, "RangeError: too deep");
 * if (out?.record.text !== "[message could not be read: RangeError: too deep]") throw new Error();
 * if (out.record.error !== "RangeError: too deep" || out.descriptors.length !== 0) throw new Error();
 * ```
 */
export function normaliseUnreadable(
  envelope: RawEnvelope,
  ctx: NormaliseContext,
  reason: string,
): NormalisedMessage | undefined {
  const m = readMessage(envelope);
  return m ? unreadable(m, envelope, ctx, reason) : undefined;
}

function unreadable(
  m: MessageFields,
  envelope: RawEnvelope,
  ctx: NormaliseContext,
  reason: string,
): NormalisedMessage {
  const table = new MentionTable(m.mentions, { botOpenId: ctx.botOpenId });
  const conversion: Conversion = {
    content: { kind: "unknown", message_type: m.messageType || "unknown" },
    text: unreadableText(reason),
    resources: [],
  };
  const record = buildRecord(m, envelope, ctx, table, conversion);
  record.error = boundedError(reason);
  return { record, descriptors: [], converterError: record.error };
}

function buildRecord(
  m: MessageFields,
  envelope: RawEnvelope,
  ctx: NormaliseContext,
  table: MentionTable,
  conversion: Conversion,
): IncomingMessageRecord {
  const content = resolveContent(conversion.content, table);
  const createdSeconds = epochSeconds(m.createTime);
  // Feishu sends ms: kept whole, it orders messages that share a second.
  const createdMs = createdSeconds !== undefined ? Math.round(createdSeconds * 1000) : undefined;
  const dateMs = createdMs ?? ctx.nowMs;
  return {
    id: formatCompoundId(ctx.alias, m.chatId, m.messageId),
    feishu_message_id: m.messageId,
    chat_id: m.chatId,
    chat_type: m.chatType,
    thread_id: m.threadId,
    message_type: m.messageType || content.kind || "unknown",
    from_open_id: m.senderOpenId,
    from_user_id: m.senderUserId,
    from_union_id: m.senderUnionId,
    from_name: (m.senderOpenId && ctx.contactName?.(m.senderOpenId)) || null,
    sender_type: m.senderType,
    sender_is_bot: m.senderType === "bot" || m.senderType === "app",
    text: tidyBodyText(table.resolve(conversion.text, { stripBot: true })),
    date: isoSeconds(dateMs),
    ...(createdMs !== undefined ? { create_time_ms: createdMs } : {}),
    parent_id: m.parentId,
    root_id: m.rootId,
    reply_to: m.parentId ? formatCompoundId(ctx.alias, m.chatId, m.parentId) : null,
    mentions: table.list(),
    content,
    attachments: [],
    media: null,
    voice_transcript: null,
    ...lateness(envelope.backfilled === true, createdSeconds, ctx.nowMs),
    feishu: envelope,
  };
}

/** Mentions in `content.text` resolve to names, the bot's included. */
function resolveContent(content: MessageContent, table: MentionTable): MessageContent {
  if (content.kind !== "text" && content.kind !== "post") return content;
  return { ...content, text: table.resolve(content.text, { stripBot: false }) };
}

/** `backfilled` and `delayed_seconds` for backfilled or late messages. */
function lateness(
  backfilled: boolean,
  createdSeconds: number | undefined,
  nowMs: number,
): { backfilled?: boolean; delayed_seconds?: number } {
  const delay = createdSeconds === undefined
    ? 0
    : Math.max(0, Math.floor(nowMs / 1000 - createdSeconds));
  if (backfilled) return { backfilled: true, delayed_seconds: delay };
  return delay >= DELAYED_AFTER_SECONDS ? { delayed_seconds: delay } : {};
}
