/**
 * Resolving what an outbound action acts on: the account a compound id names
 * and the message it points at. Synthetic records (passive events, card
 * callbacks) are not Feishu messages; acting on them is refused before any
 * I/O.
 * @module
 */

import { BridgeError, type CompoundId, EVENTS_CHAT_ID, parseCompoundId } from "../core/mod.ts";
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
 * part is `INVALID_ARGUMENT`.
 */
export function parseMessageRef(messageId: string): CompoundId {
  const id = parseCompoundId(messageId);
  if (id.alias === "" || id.messageId === "" || id.chatId === "") {
    throw invalid(`Invalid Feishu message ID format: '${messageId}'`);
  }
  if (isSyntheticId(id)) {
    throw invalid(
      `Expected the id of a Feishu message but found '${messageId}', a synthetic record ` +
        "(a channel event or a card click); it cannot be replied to, reacted to, edited or deleted",
    );
  }
  return id;
}

/** Refuses a stored record that is an event or card-action record. */
export function requireMessageRecord(stored: StoredRecord | null, messageId: string): void {
  if (stored === null) return;
  if (
    stored.kind === "event" || stored.kind === "card_action" ||
    ("synthetic" in stored.record && stored.record.synthetic === true)
  ) {
    throw invalid(
      `Expected the id of a Feishu message but found '${messageId}', a ${stored.kind} record`,
    );
  }
}
