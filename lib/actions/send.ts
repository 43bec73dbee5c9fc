/**
 * `send`: a new message to a user or chat, optionally as a native
 * progress card, through the outbound send entry; then the sent record, the
 * chat's Typing removed, its open progress cards finished (for an answer),
 * and the result.
 * @module
 */

import { BridgeError } from "../core/mod.ts";
import type { ReceiveIdType } from "../feishu/mod.ts";
import type { SendInput } from "../mcp/family/mod.ts";
import { sendMessage } from "../outbound/mod.ts";
import { stopTyping, stopTypingByTarget } from "../presence/mod.ts";
import { gateSend } from "./_gate.ts";
import { persistSent, sendContext, withWarnings } from "./_outgoing.ts";
import { checkContentIds, checkReceiveId } from "./_targets.ts";
import { finishProgress } from "./lifecycle.ts";
import { type ActionContext, resolveAccount } from "./context.ts";

/** Runs `send`. */
export async function send(ctx: ActionContext, input: SendInput): Promise<Record<string, unknown>> {
  const account = resolveAccount(ctx, input.account);
  const receiveId = input.receive_id;
  if (!receiveId) throw new BridgeError("INVALID_ARGUMENT", "receive_id is required");
  const receiveIdType: ReceiveIdType = input.receive_id_type ?? "open_id";
  checkReceiveId(receiveId, receiveIdType);
  gateSend(ctx, account, receiveId, receiveIdType);
  const out = await sendMessage(sendContext(ctx), {
    sender: account,
    target: { kind: "create", receiveId, receiveIdType },
    input: {
      text: "text" in input ? input.text : undefined,
      content: "content" in input ? input.content : undefined,
    },
    placeholder: input.placeholder === true,
    idempotencyKey: input.idempotency_key,
    // After the content's own checks (a URL as a key has its own message).
    check: () => "content" in input && checkContentIds(input.content),
  });
  if (out.kind === "blocked") return out.result;
  const presence = { account, typing: ctx.store.typing, log: ctx.deps.log };
  // Not awaited: the removal waits its turn in the chat's lane; the result does not.
  if (out.chatId) stopTyping(presence, out.chatId);
  else stopTypingByTarget(presence, receiveId, receiveIdType);
  if (out.kind === "failed") throw out.error;
  const saveWarning = persistSent(ctx, account.alias, out);
  // An answer (not a new progress card) ends the chat's open progress cards.
  if (out.chatId && input.placeholder !== true) finishProgress(ctx, account, out.chatId);
  return withWarnings(out.result, out.degradations, saveWarning);
}
