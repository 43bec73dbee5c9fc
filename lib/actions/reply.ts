/**
 * `reply`: answer a message, following its topic by default.
 * Chunk 1 replies to the target; later chunks stay in the topic when
 * `reply_in_thread`, else go to the chat. A recalled target fails with
 * `TARGET_REVOKED` and never becomes a fresh message. A full delivery adds
 * `THUMBSUP` to the target; the chat's Typing goes either way.
 * @module
 */

import { BridgeError, type Failure } from "../core/mod.ts";
import type { ReplyInput } from "../mcp/family/mod.ts";
import {
  checkIdempotencyKey,
  partialDeliveryFailure,
  sendSuccess,
  sentRecord,
} from "../outbound/mod.ts";
import { markDone, stopTyping } from "../presence/mod.ts";
import { persistSent, prepareOutgoing, sentAt, transmit, withWarnings } from "./_outgoing.ts";
import { checkContentIds, parseMessageRef, requireMessageRecord } from "./_targets.ts";
import { type ActionContext, resolveAccount } from "./context.ts";

/** Runs `reply`. */
export async function reply(
  ctx: ActionContext,
  input: ReplyInput,
): Promise<Record<string, unknown>> {
  const targetId = input.message_id;
  if (!targetId) throw new BridgeError("INVALID_ARGUMENT", "message_id is required");
  const target = parseMessageRef(targetId);
  const idempotencyKey = checkIdempotencyKey(input.idempotency_key);
  const prepared = await prepareOutgoing(ctx, {
    text: "text" in input ? input.text : undefined,
    content: "content" in input ? input.content : undefined,
  });
  // After the content's own checks (a URL as a key has its own message); before any request.
  if ("content" in input) checkContentIds(input.content);
  const account = resolveAccount(ctx, target.alias);
  const stored = ctx.store.records.findByMessageId(account.alias, targetId);
  requireMessageRecord(stored, targetId);
  const storedThread = typeof stored?.record.thread_id === "string" && stored.record.thread_id
    ? stored.record.thread_id
    : null;
  const replyInThread = input.reply_in_thread ?? storedThread !== null;

  const presence = { account, typing: ctx.store.typing, log: ctx.deps.log };
  let outcome;
  try {
    outcome = await transmit(ctx, {
      account,
      prepared,
      route: { kind: "reply", targetId: target.messageId, chatId: target.chatId, replyInThread },
      idempotencyKey,
    });
  } catch (err) {
    await stopTyping(presence, target.chatId);
    throw err;
  }
  const last = outcome.delivered.at(-1);
  if (last === undefined) {
    await stopTyping(presence, target.chatId);
    throw outcome.failure!;
  }

  const chatId = last.chatId || target.chatId;
  const threadId = last.threadId ?? (replyInThread ? storedThread : null);
  const at = sentAt(ctx, outcome.delivered);
  const contentType = prepared.content.type;
  const record = sentRecord({
    alias: account.alias,
    chatId,
    to: { receive_id: chatId, receive_id_type: "chat_id" },
    providerIds: outcome.delivered.map((m) => m.messageId),
    content: prepared.content,
    at,
    provider: { root_id: last.rootId, parent_id: last.parentId, thread_id: threadId },
    reply: { replyTo: targetId, replyInThread },
    partial: outcome.failure
      ? { chunkCount: outcome.chunkCount, error: outcome.failure }
      : undefined,
  });
  const saveWarning = persistSent(ctx, account.alias, record);
  const ids = record.message_ids as string[];
  let result: Record<string, unknown> | Failure;
  if (outcome.failure) {
    result = partialDeliveryFailure({
      error: outcome.failure,
      deliveredIds: ids,
      chunkCount: outcome.chunkCount,
      contentType,
      threadId,
      replyInThread,
    });
  } else {
    await markDone(presence, { chatId: target.chatId, messageId: target.messageId });
    result = sendSuccess({ messageIds: ids, contentType, threadId, replyInThread });
  }
  await stopTyping(presence, target.chatId);
  return withWarnings(result, prepared.degradations, saveWarning);
}
