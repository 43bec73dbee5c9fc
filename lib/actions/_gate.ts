/**
 * The outbound gate as actions apply it, before any request: a chat that is
 * gone (dissolved, or the bot removed) refuses everything with
 * `TARGET_REVOKED` (the outbox's own check, so presence and Task Cards meet
 * the same one); then `access.outbound: "admitted"`: `send` checks its
 * target; `reply`, `edit`, `delete` and `react` check the chat of the stored
 * message they act on (a message the store does not hold cannot be placed
 * in a chat, so it is refused too).
 * @module
 */

import type { Account } from "../account/mod.ts";
import { checkChat, checkSendTarget } from "../access/mod.ts";
import { BridgeError, parseCompoundId } from "../core/mod.ts";
import type { StoredRecord } from "../store/mod.ts";
import type { ActionContext } from "./context.ts";

function knows(ctx: ActionContext) {
  return (alias: string, chatId: string, ids: readonly string[]) =>
    ctx.store.records.chatKnowsAny(alias, chatId, ids);
}

/** Refuses a `send` target the account's gate does not let through. */
export function gateSend(
  ctx: ActionContext,
  account: Account,
  receiveId: string,
  receiveIdType: string,
): void {
  // A user's p2p chat is never dissolved; a chat id names the chat itself.
  if (receiveIdType === "chat_id") account.outbox.checkChat(receiveId);
  checkSendTarget(account, knows(ctx), receiveId, receiveIdType);
}

/**
 * Refuses acting on a message whose chat the account's gate does not let
 * through; `stored` is the message's record as the action already read it.
 */
export function gateMessage(
  ctx: ActionContext,
  account: Account,
  messageId: string,
  stored: StoredRecord | null,
): void {
  account.outbox.checkChat(stored?.chatId ?? parseCompoundId(messageId).chatId);
  if (account.access.outbound !== "admitted") return;
  if (!stored) {
    throw new BridgeError(
      "TARGET_NOT_ALLOWED",
      `access.outbound is "admitted": message '${messageId}' is not in the store, so its chat ` +
        "cannot be checked; act only on messages read from chats with owners, allowed or paired users",
    );
  }
  checkChat(account, knows(ctx), stored.chatId);
}
