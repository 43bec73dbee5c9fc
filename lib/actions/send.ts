/**
 * `send`: a new message to a user or chat, optionally as a native
 * progress card. Validation, materialisation and the duplicate guard run
 * before any I/O; then upload (if any) and one attempt per chunk; then the
 * sent record, the chat's Typing removed, and the result.
 * @module
 */

import { BridgeError, type Failure } from "../core/mod.ts";
import type { ReceiveIdType } from "../feishu/mod.ts";
import type { SendInput } from "../mcp/family/mod.ts";
import {
  checkIdempotencyKey,
  duplicateBlocked,
  partialDeliveryFailure,
  sendSuccess,
  sentRecord,
} from "../outbound/mod.ts";
import { stopTyping, stopTypingByTarget } from "../presence/mod.ts";
import { persistSent, prepareOutgoing, sentAt, transmit, withWarnings } from "./_outgoing.ts";
import { checkContentIds, checkReceiveId } from "./_targets.ts";
import { type ActionContext, resolveAccount } from "./context.ts";

/** Runs `send`. */
export async function send(
  ctx: ActionContext,
  input: SendInput,
): Promise<Record<string, unknown>> {
  const account = resolveAccount(ctx, input.account);
  const receiveId = input.receive_id;
  if (!receiveId) throw new BridgeError("INVALID_ARGUMENT", "receive_id is required");
  const receiveIdType: ReceiveIdType = input.receive_id_type ?? "open_id";
  checkReceiveId(receiveId, receiveIdType);
  const idempotencyKey = checkIdempotencyKey(input.idempotency_key);
  const placeholder = input.placeholder === true;
  const rt = ctx.outbound;
  const prepared = await prepareOutgoing(ctx, {
    text: "text" in input ? input.text : undefined,
    content: "content" in input ? input.content : undefined,
    placeholder,
  });
  // After the content's own checks (a URL as a key has its own message); before any request.
  if ("content" in input) checkContentIds(input.content);
  const identity = {
    account: account.alias,
    receiveId,
    content: prepared.content.recordContent,
  };
  if (rt.guard.blocked(identity)) return duplicateBlocked();

  const presence = { account, typing: ctx.store.typing, log: ctx.deps.log };
  const clearTyping = (chatId: string) =>
    chatId
      ? stopTyping(presence, chatId).then(() => {})
      : stopTypingByTarget(presence, receiveId, receiveIdType);
  const knownChat = receiveIdType === "chat_id" ? receiveId : "";

  let outcome;
  try {
    outcome = await transmit(ctx, {
      account,
      prepared,
      route: { kind: "create", receiveId, receiveIdType },
      idempotencyKey,
    });
  } catch (err) {
    await clearTyping(knownChat);
    throw err;
  }
  const last = outcome.delivered.at(-1);
  await clearTyping(last?.chatId || knownChat);
  if (last === undefined) throw outcome.failure!;

  const chatId = last.chatId || knownChat || receiveId;
  const at = sentAt(ctx, outcome.delivered);
  const contentType = prepared.content.type;
  const record = sentRecord({
    alias: account.alias,
    chatId,
    to: { receive_id: receiveId, receive_id_type: receiveIdType },
    providerIds: outcome.delivered.map((m) => m.messageId),
    content: prepared.content,
    at,
    placeholder,
    provider: { root_id: last.rootId, parent_id: last.parentId, thread_id: last.threadId },
    partial: outcome.failure
      ? { chunkCount: outcome.chunkCount, error: outcome.failure }
      : undefined,
  });
  const saveWarning = persistSent(ctx, account.alias, record);
  rt.guard.record(identity);
  const ids = record.message_ids as string[];
  const result: Record<string, unknown> | Failure = outcome.failure
    ? partialDeliveryFailure({
      error: outcome.failure,
      deliveredIds: ids,
      chunkCount: outcome.chunkCount,
      contentType,
      threadId: last.threadId,
    })
    : sendSuccess({ messageIds: ids, contentType, threadId: last.threadId, placeholder });
  return withWarnings(result, prepared.degradations, saveWarning);
}
