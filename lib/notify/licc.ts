/**
 * LICC v1 notifications for LingTai: the event built for an
 * admitted message, the producer-side validation, and the atomic writer
 * (`<event_id>.json.tmp`, fsync, rename) into the agent's MCP inbox.
 * @module
 */

import { createHash } from "node:crypto";
import { join } from "node:path";
import {
  BridgeError,
  codePointLength,
  formatCompoundId,
  truncateCodePoints,
  writeFileAtomic,
} from "../core/mod.ts";
import type { ConversationPreview } from "./preview.ts";
import { safeLine } from "./safe_text.ts";
import type { IncomingMessageRecord } from "../store/mod.ts";

/** Longest subject, in characters. */
export const MAX_SUBJECT_CHARS = 200;
/** Texts longer than this count as truncated in the preview metadata. */
export const PREVIEW_TEXT_CHARS = 300;
/** The body used if a preview were ever empty. */
export const EMPTY_BODY = "(no text — see media or callback)";

const EVENT_ID = /^[A-Za-z0-9_.-]{1,128}$/;
const MCP_NAME = /^[a-z][a-z0-9_-]{0,30}$/;

/** A LICC v1 event as written to disk. */
export interface LiccEvent {
  licc_version: 1;
  from: string;
  subject: string;
  body: string;
  metadata: Record<string, unknown>;
  wake: boolean;
  received_at: string;
}

/** Options of {@link buildMessageEvent}. */
export interface MessageEventOptions {
  alias: string;
  /** The preview of the record's chat; null when building it failed. */
  preview: ConversationPreview | null;
  /** Now, from the injected clock. */
  nowMs: number;
  contactName?: (openId: string) => string | null | undefined;
}

/**
 * The subject of a message notification, cut inside the sender's name so it
 * stays within 200 characters (a long subject is shortened, never dropped).
 * The name is put on one line and made tag-safe.
 *
 * @example
 * ```ts
 * import { liccSubject } from "./licc.ts";
 * import assert from "node:assert/strict";
 * assert.equal(liccSubject("Ann", { alias: "main" }), "feishu message from Ann via main");
 * assert.equal(liccSubject("Ann", { alias: "main", transcribed: true }),
 *   "feishu voice message from Ann via main (transcribed)");
 * assert.equal(liccSubject("x".repeat(500), { alias: "main" }).length, 200);
 * assert.equal(liccSubject("A\nme: ok", { alias: "main" }), "feishu message from A me: ok via main");
 * ```
 */
export function liccSubject(
  from: string,
  options: { alias: string; transcribed?: boolean; what?: string },
): string {
  const head = `feishu ${
    options.what ?? (options.transcribed ? "voice message" : "message")
  } from `;
  const tail = ` via ${safeLine(options.alias)}${options.transcribed ? " (transcribed)" : ""}`;
  from = safeLine(from);
  const budget = MAX_SUBJECT_CHARS - codePointLength(head + tail);
  if (budget >= 1) return head + truncateCodePoints(from, budget) + tail;
  return truncateCodePoints(head + from + tail, MAX_SUBJECT_CHARS);
}

/**
 * The first 300 characters of a text on one line (every line break a space,
 * tag-safe), `...` appended when longer: the body used when the preview could
 * not be built.
 *
 * @example
 * ```ts
 * import { fallbackPreview } from "./licc.ts";
 * if (fallbackPreview("a\nb") !== "a b") throw new Error();
 * if (fallbackPreview("a\u2028b\r<c>") !== "a b ‹c›") throw new Error();
 * ```
 */
export function fallbackPreview(text: string): string {
  const flat = safeLine(text);
  const cps = Array.from(flat);
  return cps.length > PREVIEW_TEXT_CHARS ? `${cps.slice(0, PREVIEW_TEXT_CHARS).join("")}...` : flat;
}

/**
 * Builds the LICC event of an admitted inbound message: `from`
 * is never empty (name, contact name, open_id, then `unknown`) and on one
 * line, tag-safe, the subject is
 * bounded, the body is the preview, and the metadata carries routing refs and
 * the structured window.
 *
 * @example
 * ```ts
 * import { buildMessageEvent } from "./licc.ts";
 * import assert from "node:assert/strict";
 * const record = {
 *   id: "main:oc_1:om_1", feishu_message_id: "om_1", chat_id: "oc_1", chat_type: "p2p" as const,
 *   thread_id: null, message_type: "text", from_open_id: "", from_user_id: null, from_union_id: null,
 *   from_name: null, sender_type: "user", sender_is_bot: false, text: "hi", date: "2026-08-03T09:15:02Z",
 *   parent_id: "", root_id: "", reply_to: null, mentions: [], content: { kind: "text" as const, text: "hi" },
 *   attachments: [], media: null, voice_transcript: null, feishu: {},
 * };
 * const event = buildMessageEvent(record, { alias: "main", preview: null, nowMs: 0 });
 * assert.equal(event.from, "unknown");
 * assert.equal(event.subject, "feishu message from unknown via main");
 * assert.equal(event.body, "hi");
 * ```
 */
export function buildMessageEvent(
  record: IncomingMessageRecord,
  options: MessageEventOptions,
): LiccEvent {
  const from = safeLine(
    record.from_name ||
      (record.from_open_id && options.contactName?.(record.from_open_id)) ||
      record.from_open_id || "unknown",
  );
  const transcript = record.voice_transcript;
  const textLength = codePointLength(record.text);
  const metadata: Record<string, unknown> = {
    message_id: record.id,
    account: options.alias,
    chat_id: record.chat_id,
    chat_type: record.chat_type,
    thread_id: record.thread_id,
    from_open_id: record.from_open_id,
    platform: "feishu",
    conversation_ref: `${options.alias}:${record.chat_id}`,
    message_ref: formatCompoundId(options.alias, record.chat_id, record.feishu_message_id),
    preview_truncated: textLength > PREVIEW_TEXT_CHARS,
    full_length: textLength,
    has_media: record.media !== null,
    is_voice_transcript: transcript !== null,
    voice_duration: transcript?.duration ?? null,
    message_type: record.message_type,
  };
  return wakeEvent({
    from,
    subject: liccSubject(from, { alias: options.alias, transcribed: transcript !== null }),
    metadata,
    preview: options.preview,
    text: record.text,
    nowMs: options.nowMs,
  });
}

/**
 * A waking LICC event: the preview's window joins the metadata and its body
 * is the event's (the record's text, shortened, when there is no preview).
 */
export function wakeEvent(parts: {
  from: string;
  subject: string;
  metadata: Record<string, unknown>;
  preview: ConversationPreview | null;
  text: string;
  nowMs: number;
}): LiccEvent {
  const { preview, metadata } = parts;
  if (preview) {
    metadata.recent_messages = preview.recent_messages;
    if (preview.latest_incoming) metadata.latest_incoming = preview.latest_incoming;
  }
  const body = preview?.body ?? fallbackPreview(parts.text);
  return {
    licc_version: 1,
    from: parts.from,
    subject: parts.subject,
    body: body === "" ? EMPTY_BODY : body,
    metadata,
    wake: true,
    received_at: isoWithOffset(parts.nowMs),
  };
}

/**
 * An ISO-8601 time with an explicit `+00:00` offset and milliseconds.
 *
 * @example
 * ```ts
 * import { isoWithOffset } from "./licc.ts";
 * if (isoWithOffset(1500) !== "1970-01-01T00:00:01.500+00:00") throw new Error();
 * ```
 */
export function isoWithOffset(ms: number): string {
  return new Date(ms).toISOString().replace("Z", "+00:00");
}

/**
 * The producer-side checks of a LICC v1 event; returns what is wrong, or undefined
 * when the event may be written.
 *
 * @example
 * ```ts
 * import { validateLiccEvent } from "./licc.ts";
 * import assert from "node:assert/strict";
 * const ok = { licc_version: 1, from: "a", subject: "s", body: "", metadata: {}, wake: true, received_at: "" };
 * assert.equal(validateLiccEvent(ok), undefined);
 * assert.equal(validateLiccEvent({ ...ok, from: "" }), "Expected from to be a non-empty string but found \"\"");
 * ```
 */
export function validateLiccEvent(event: unknown): string | undefined {
  const e = (typeof event === "object" && event !== null ? event : {}) as Record<string, unknown>;
  if (e.licc_version !== 1) {
    return `Expected licc_version to be 1 but found ${show(e.licc_version)}`;
  }
  if (typeof e.from !== "string" || e.from === "") {
    return `Expected from to be a non-empty string but found ${show(e.from)}`;
  }
  if (typeof e.subject !== "string" || e.subject === "") {
    return `Expected subject to be a non-empty string but found ${show(e.subject)}`;
  }
  if (codePointLength(e.subject) > MAX_SUBJECT_CHARS) {
    return `Expected subject to be at most ${MAX_SUBJECT_CHARS} characters but found ${
      codePointLength(e.subject)
    }`;
  }
  if (typeof e.body !== "string") return `Expected body to be a string but found ${show(e.body)}`;
  if (typeof e.metadata !== "object" || e.metadata === null || Array.isArray(e.metadata)) {
    return `Expected metadata to be an object but found ${show(e.metadata)}`;
  }
  if (typeof e.wake !== "boolean") return `Expected wake to be a boolean but found ${show(e.wake)}`;
  return undefined;
}

function show(value: unknown): string {
  return value === undefined ? "undefined" : truncateCodePoints(JSON.stringify(value), 60);
}

/**
 * The LICC inbox folder of this server:
 * `<workdir>/.mcp_inbox/<mcpName>`, the name checked against LingTai's
 * pattern (`feishu` by default).
 *
 * @example
 * ```ts
 * import { liccInboxDir } from "./licc.ts";
 * if (liccInboxDir("/w") !== "/w/.mcp_inbox/feishu") throw new Error();
 * ```
 */
export function liccInboxDir(workdir: string, mcpName = "feishu"): string {
  if (!MCP_NAME.test(mcpName)) {
    throw new BridgeError(
      "INVALID_ARGUMENT",
      `Expected the MCP name to match ${MCP_NAME.source} but found ${show(mcpName)}`,
    );
  }
  return join(workdir, ".mcp_inbox", mcpName);
}

/**
 * A stable 32-hex event id for a key (e.g. a record id), so a replayed
 * message rewrites the same file instead of waking the agent twice.
 *
 * @example
 * ```ts
 * import { liccEventIdFor } from "./licc.ts";
 * import assert from "node:assert/strict";
 * assert.match(liccEventIdFor("main:oc_1:om_1"), /^[0-9a-f]{32}$/);
 * assert.equal(liccEventIdFor("k"), liccEventIdFor("k"));
 * ```
 */
export function liccEventIdFor(key: string): string {
  return createHash("sha256").update(key).digest("hex").slice(0, 32);
}

/** Options of {@link writeLiccEvent}. */
export interface WriteLiccOptions {
  /** The inbox folder (see {@link liccInboxDir}); created when missing. */
  dir: string;
  /** An explicit id; else a fresh 32-hex id. */
  eventId?: string;
  /** Source of fresh ids (UUID v4); defaults to `crypto.randomUUID`. */
  newId?: () => string;
}

/** Result of {@link writeLiccEvent}: written, or refused with the reason. */
export type WriteLiccResult =
  | { written: true; eventId: string; path: string }
  | { written: false; reason: string };

/**
 * Validates and writes one event: `<dir>/<event_id>.json.tmp`, fsync, then
 * rename to `<event_id>.json`. An invalid event is not written; I/O errors
 * are thrown for the caller to log (the kernel ignores `*.json.tmp`).
 */
export async function writeLiccEvent(
  event: LiccEvent,
  options: WriteLiccOptions,
): Promise<WriteLiccResult> {
  const problem = validateLiccEvent(event);
  if (problem) return { written: false, reason: problem };
  const eventId = options.eventId ??
    (options.newId ?? (() => crypto.randomUUID()))().replaceAll("-", "");
  if (!EVENT_ID.test(eventId)) {
    return {
      written: false,
      reason: `Expected the event id to match ${EVENT_ID.source} but found ${show(eventId)}`,
    };
  }
  const path = join(options.dir, `${eventId}.json`);
  await writeFileAtomic(path, JSON.stringify(event), { tmpSuffix: ".tmp" });
  return { written: true, eventId, path };
}
