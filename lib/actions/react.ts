/**
 * `react`: add or remove one reaction on a message, exactly once.
 * Independent of the automatic presence reactions; never retried, never
 * turned into a message.
 * @module
 */

import { BridgeError, requireFeishuId } from "../core/mod.ts";
import type { ReactInput } from "../mcp/family/mod.ts";
import { gateMessage } from "./_gate.ts";
import { parseMessageRef, requireMessageRecord } from "./_targets.ts";
import { type ActionContext, resolveAccount } from "./context.ts";

/** Runs `react`. */
export async function react(
  ctx: ActionContext,
  input: ReactInput,
): Promise<Record<string, unknown>> {
  const ref = parseMessageRef(input.message_id);
  const account = resolveAccount(ctx, ref.alias);
  const stored = ctx.store.records.findByMessageId(account.alias, input.message_id);
  requireMessageRecord(stored, input.message_id);
  gateMessage(ctx, account, input.message_id, stored);
  const target = { chatId: ref.chatId, messageId: ref.messageId };
  if (input.operation === "add") {
    if (!input.emoji_type) {
      throw new BridgeError("INVALID_ARGUMENT", "emoji_type is required for reaction add");
    }
    requireFeishuId("emoji_type", input.emoji_type);
    const reactionId = await account.outbox.react({ ...target, emojiType: input.emoji_type });
    return {
      status: "added",
      message_id: input.message_id,
      reaction_id: reactionId,
      emoji_type: input.emoji_type,
    };
  }
  if (input.operation === "remove") {
    if (!input.reaction_id) {
      throw new BridgeError("INVALID_ARGUMENT", "reaction_id is required for reaction remove");
    }
    requireFeishuId("reaction_id", input.reaction_id);
    await account.outbox.unreact({ ...target, reactionId: input.reaction_id });
    return { status: "removed", message_id: input.message_id, reaction_id: input.reaction_id };
  }
  throw new BridgeError("INVALID_ARGUMENT", "operation must be add or remove");
}
