/**
 * The preview of a replied-to message: sender and one line of text, from a
 * record we hold or from the parent Feishu gave us. Pure.
 * @module
 */

import { truncateCodePoints } from "../../core/mod.ts";
import type { ReplyParent } from "../../store/mod.ts";

/** Code points of a parent's preview text. */
export const PARENT_PREVIEW_CHARS = 200;

/** The fields a preview reads; stored inbound and sent records and fetched parents all fit. */
export interface ParentSource {
  message_type?: string | null;
  from_open_id?: string | null;
  from_name?: string | null;
  sender_type?: string | null;
  sender_is_bot?: boolean;
  date?: string | null;
  sent_at?: string | null;
  text?: string | null;
}

/**
 * One line of at most {@link PARENT_PREVIEW_CHARS} code points: every run of
 * whitespace (line breaks included) becomes one space.
 *
 * @example
 * ```ts
 * import { previewLine } from "./quoted.ts";
 * if (previewLine("a\n\n b ") !== "a b") throw new Error();
 * if (Array.from(previewLine("x".repeat(500))).length !== 200) throw new Error();
 * ```
 */
export function previewLine(text: string): string {
  return truncateCodePoints(text.replace(/\s+/gu, " ").trim(), PARENT_PREVIEW_CHARS);
}

/**
 * The `reply_to_message` of a reply whose parent we could read. `source`
 * says where it came from; a record we sent ourselves is from this bot.
 *
 * @example
 * ```ts
 * import { parentPreview } from "./quoted.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(
 *   parentPreview("main:oc_1:om_1", "feishu", { message_type: "text", from_open_id: "ou_a", from_name: "Ann", sender_type: "user", date: "2026-01-01T00:00:00Z", text: "see\nthis" }),
 *   { id: "main:oc_1:om_1", source: "feishu", message_type: "text", from_id: "ou_a", from_name: "Ann", sender_type: "user", date: "2026-01-01T00:00:00Z", text: "see this" },
 * );
 * ```
 */
export function parentPreview(
  id: string,
  source: "store" | "feishu",
  r: ParentSource,
  options: { sentByUs?: { appId: string } } = {},
): ReplyParent {
  const out: ReplyParent = { id, source };
  if (r.message_type) out.message_type = r.message_type;
  if (options.sentByUs) {
    out.from_id = options.sentByUs.appId;
    out.sender_type = "app";
  } else {
    if (r.from_open_id) out.from_id = r.from_open_id;
    out.from_name = r.from_name ?? null;
    if (r.sender_type) out.sender_type = r.sender_type;
  }
  const date = r.date || r.sent_at;
  if (date) out.date = date;
  out.text = previewLine(r.text ?? "");
  return out;
}

/**
 * The `reply_to_message` of a parent that could not be read: only its id,
 * marked, with the bounded reason. Nothing about it is guessed.
 *
 * @example
 * ```ts
 * import { unreadableParent } from "./quoted.ts";
 * const p = unreadableParent("main:oc_1:om_1", "Lack of necessary permissions");
 * if (p.source !== "unreadable" || p.text !== undefined) throw new Error();
 * ```
 */
export function unreadableParent(id: string, reason: string): ReplyParent {
  return { id, source: "unreadable", error: previewLine(reason) };
}
