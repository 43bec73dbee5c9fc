/**
 * Resolving what an outbound action acts on: the account a compound id names
 * and the message it points at. Synthetic records (passive events, card
 * callbacks) are not Feishu messages; acting on them is refused before any
 * I/O.
 * @module
 */

import {
  BridgeError,
  type CompoundId,
  EVENTS_CHAT_ID,
  parseCompoundId,
  requireEmail,
  requireFeishuId,
} from "../core/mod.ts";
import type { StoredRecord } from "../store/mod.ts";

function invalid(message: string): BridgeError {
  return new BridgeError("INVALID_ARGUMENT", message);
}

/** Whether a compound id names a synthetic record rather than a Feishu message. */
export function isSyntheticId(id: CompoundId): boolean {
  return id.chatId === EVENTS_CHAT_ID || id.messageId.startsWith("callback-");
}

/**
 * Parses the compound id of a Feishu message; a synthetic or empty message
 * part is `INVALID_ARGUMENT`, and so is a chat or message part that is not
 * spelled like a Feishu id (such a part would leave its path segment in the
 * request URL). `field` names the input in the error.
 */
export function parseMessageRef(messageId: string, field = "message_id"): CompoundId {
  const id = parseCompoundId(messageId);
  if (id.alias === "" || id.messageId === "" || id.chatId === "") {
    throw invalid(`Invalid Feishu message ID format: '${messageId}'`);
  }
  if (isSyntheticId(id)) {
    throw invalid(
      `Expected the id of a Feishu message but found '${messageId}', a synthetic record ` +
        "(a channel event or a card click); it cannot be replied to, reacted to, edited or deleted. " +
        "To answer a card click, edit the card its source_message_ref names or send to its chat",
    );
  }
  requireFeishuId(`${field} (its chat part)`, id.chatId);
  requireFeishuId(`${field} (its message part)`, id.messageId);
  return id;
}

/**
 * Checks a `receive_id` against its type: an email address for `email`,
 * else a Feishu id. `INVALID_ARGUMENT` naming `receive_id` otherwise.
 */
export function checkReceiveId(receiveId: string, receiveIdType: string): void {
  if (receiveId === EVENTS_CHAT_ID) {
    throw invalid(
      `receive_id '${EVENTS_CHAT_ID}' is the reserved conversation of channel events: it can be ` +
        "read, not sent to",
    );
  }
  if (receiveIdType === "email") requireEmail("receive_id", receiveId);
  else requireFeishuId("receive_id", receiveId);
}

/**
 * Checks the provider ids inside outbound content (an existing media key,
 * a shared chat or user, a sticker's file key) before any I/O.
 */
export function checkContentIds(content: unknown): void {
  if (content === null || typeof content !== "object") return;
  const c = content as Record<string, unknown>;
  const source = c.source as Record<string, unknown> | undefined;
  if (source?.type === "key" && typeof source.key === "string") {
    requireFeishuId("content.source.key", source.key);
  }
  if (c.type === "share_chat" && typeof c.chat_id === "string") {
    requireFeishuId("content.chat_id", c.chat_id);
  }
  if (c.type === "share_user" && typeof c.user_id === "string") {
    requireFeishuId("content.user_id", c.user_id);
  }
  if (c.type === "sticker" && typeof c.file_key === "string") {
    requireFeishuId("content.file_key", c.file_key);
  }
}

/**
 * Refuses a stored record that is an event or card-action record, and the
 * bridge's own cards: a resident Task Card (the bridge edits, moves and
 * deletes it; an agent's edit would be overwritten or, worse, delete the card
 * a chat relies on) and a local command's control card.
 */
export function requireMessageRecord(stored: StoredRecord | null, messageId: string): void {
  if (stored === null) return;
  const own = stored.kind === "sent"
    ? stored.record as { task_card?: boolean; local_command?: boolean }
    : {};
  if (own.task_card === true) {
    throw invalid(
      `'${messageId}' is the chat's resident Task Card, which the bridge keeps: it cannot be ` +
        "replied to, reacted to, edited or deleted. To answer someone who replied to it, reply " +
        "to their message or send to the chat",
    );
  }
  if (own.local_command === true) {
    throw invalid(
      `'${messageId}' is a control card answering a local command, which the bridge keeps: it ` +
        "cannot be replied to, reacted to, edited or deleted",
    );
  }
  if (
    stored.kind === "event" || stored.kind === "card_action" ||
    ("synthetic" in stored.record && stored.record.synthetic === true)
  ) {
    throw invalid(
      `Expected the id of a Feishu message but found '${messageId}', a ${stored.kind} record`,
    );
  }
}
