/**
 * `reply`: answer a message, following its topic by default.
 * Chunk 1 replies to the target; later chunks stay in the topic when
 * `reply_in_thread`, else go to the chat. A recalled target fails with
 * `TARGET_REVOKED` and never becomes a fresh message. A full delivery adds
 * `THUMBSUP` to the target; the chat's Typing goes either way.
 * @module
 */

import { BridgeError } from "../core/mod.ts";
import type { ReplyInput } from "../mcp/family/mod.ts";
import { sendMessage } from "../outbound/mod.ts";
import { markDone, stopTyping } from "../presence/mod.ts";
import { persistSent, sendContext, withWarnings } from "./_outgoing.ts";
import { gateMessage } from "./_gate.ts";
import { checkContentIds, parseMessageRef, requireMessageRecord } from "./_targets.ts";
import { type ActionContext, resolveAccount } from "./context.ts";
import { finishProgress } from "./lifecycle.ts";

/** Runs `reply`. */
export async function reply(
  ctx: ActionContext,
  input: ReplyInput,
): Promise<Record<string, unknown>> {
  const targetId = input.message_id;
  if (!targetId) throw new BridgeError("INVALID_ARGUMENT", "message_id is required");
  const target = parseMessageRef(targetId);
  const account = resolveAccount(ctx, target.alias);
  const stored = ctx.store.records.findByMessageId(account.alias, targetId);
  gateMessage(ctx, account, targetId, stored);
  const storedThread = typeof stored?.record.thread_id === "string" && stored.record.thread_id
    ? stored.record.thread_id
    : null;
  const replyInThread = input.reply_in_thread ?? storedThread !== null;
  const out = await sendMessage(sendContext(ctx), {
    sender: account,
    target: { kind: "reply", ...target, replyInThread, storedThread },
    input: {
      text: "text" in input ? input.text : undefined,
      content: "content" in input ? input.content : undefined,
    },
    idempotencyKey: input.idempotency_key,
    // After the content's own checks (a URL as a key has its own message).
    check() {
      if ("content" in input) checkContentIds(input.content);
      requireMessageRecord(stored, targetId);
    },
  });
  const presence = { account, typing: ctx.store.typing, log: ctx.deps.log };
  if (out.kind !== "sent") {
    stopTyping(presence, target.chatId);
    if (out.kind === "failed") throw out.error;
    return out.result;
  }
  const saveWarning = persistSent(ctx, account.alias, out);
  // Neither is awaited: they wait their turn in the chat's lane; the result does not.
  if (out.complete) void markDone(presence, { chatId: target.chatId, messageId: target.messageId });
  stopTyping(presence, target.chatId);
  finishProgress(ctx, account, target.chatId);
  return withWarnings(out.result, out.degradations, saveWarning);
}
