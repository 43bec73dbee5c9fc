/**
 * The `card_action` record of a business callback: stored in the card's own
 * conversation (its topic too), readable with `read`, and pointing back at the
 * card (`source_message_ref`) so the agent can edit it. It is not a Feishu
 * message: replying to its id is refused; the agent edits the card or sends
 * to the chat. Pure.
 * @module
 */

import { formatCompoundId, isoSeconds, truncateCodePoints } from "../core/mod.ts";
import type { CardActionRecord } from "../store/mod.ts";
import { type CardCallback, type JsonObject, withoutTokens } from "./project.ts";
import { pythonJson } from "./python_json.ts";

/** Longest record text, in code points. */
export const CARD_ACTION_TEXT_CHARS = 2000;

/** The record id of a callback: `<alias>:<chat>:callback-<event id>`. */
export function cardActionId(alias: string, chatId: string, eventId: string): string {
  return formatCompoundId(alias, chatId, `callback-${eventId}`);
}

/** What the agent sees of a callback: card, chat, who, and what was sent. */
export function callbackProjection(cb: CardCallback): JsonObject {
  return {
    source_message_id: cb.sourceMessageId,
    chat_id: cb.chatId,
    operator: { ...cb.operator },
    action: { ...cb.action },
  };
}

/**
 * The record's text: `[card action: <tag>] <value as sorted JSON>`, at most
 * 2000 code points.
 *
 * @example
 * ```ts
 * import { cardActionText } from "./record.ts";
 * if (cardActionText({ tag: "button", value: { b: 2, action: "确认" } }) !==
 *   '[card action: button] {"action": "确认", "b": 2}') throw new Error();
 * ```
 */
export function cardActionText(action: JsonObject): string {
  const tag = typeof action.tag === "string" && action.tag ? action.tag : "unknown";
  return truncateCodePoints(
    `[card action: ${tag}] ${pythonJson(action.value ?? {})}`,
    CARD_ACTION_TEXT_CHARS,
  );
}

/** Options of {@link buildCardActionRecord}. */
export interface CardActionRecordOptions {
  alias: string;
  /** The clicker's display name, when known. */
  fromName: string | null;
  /** Now (ms): the date when the callback carries none. */
  nowMs: number;
}

/**
 * Builds the record of a business callback that names its chat.
 *
 * @example
 * ```ts
 * import { buildCardActionRecord } from "./record.ts";
 * import assert from "node:assert/strict";
 * const r = buildCardActionRecord({
 *   eventId: "ev_1", chatId: "oc_chat", threadId: null, sourceMessageId: "om_card",
 *   operator: { open_id: "ou_a" }, action: { tag: "button", value: { action: "confirm" } },
 *   token: null, atMs: null, raw: {},
 * }, { alias: "main", fromName: null, nowMs: 0 });
 * assert.equal(r.id, "main:oc_chat:callback-ev_1");
 * assert.equal(r.source_message_ref, "main:oc_chat:om_card");
 * assert.equal(r.text, '[card action: button] {"action": "confirm"}');
 * ```
 */
export function buildCardActionRecord(
  cb: CardCallback & { chatId: string },
  options: CardActionRecordOptions,
): CardActionRecord {
  const projection = callbackProjection(cb);
  return {
    id: cardActionId(options.alias, cb.chatId, cb.eventId),
    feishu_event_id: cb.eventId,
    chat_id: cb.chatId,
    chat_type: "unknown",
    thread_id: cb.threadId,
    message_type: "card_action",
    event_type: "card_action",
    from_open_id: cb.operator.open_id,
    from_name: options.fromName,
    sender_type: "user",
    sender_is_bot: false,
    text: cardActionText(cb.action),
    date: isoSeconds(cb.atMs ?? options.nowMs),
    source_message_id: cb.sourceMessageId,
    source_message_ref: cb.sourceMessageId
      ? formatCompoundId(options.alias, cb.chatId, cb.sourceMessageId)
      : null,
    content: { kind: "card_action", ...projection },
    card_action: projection,
    synthetic: true,
    // Kept without its verification and update tokens: `read` shows this.
    feishu: withoutTokens(cb.raw) as JsonObject,
  };
}
