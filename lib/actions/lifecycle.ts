/**
 * `edit` and `delete`: act on the whole chunk group of a logical message from
 * any of its compound ids, one attempt per member even after an earlier
 * member failed, then record the lifecycle. An edit re-materialises the new
 * content over the group (same chunk count: each edited; fewer: the extra
 * ones deleted; more: refused before any I/O); a progress card stays a
 * progress card. Every call goes through the account's outbox in the chat's
 * lane; an edit of a progress card waits behind the chat's answers.
 * @module
 */

import type { Account } from "../account/mod.ts";
import { asBridgeError, BridgeError, parseCompoundId } from "../core/mod.ts";
import type { DeleteInput, EditInput } from "../mcp/family/mod.ts";
import {
  applyLifecycle,
  checkOutboundTextCap,
  type EditResult,
  type LifecycleInput,
  lifecycleResponse,
  type MemberOutcome,
  normaliseOutbound,
  PRIORITY,
  resolveChunkGroup,
} from "../outbound/mod.ts";
import type { StoredRecord } from "../store/mod.ts";
import { withWarnings } from "./_outgoing.ts";
import { gateMessage } from "./_gate.ts";
import { parseMessageRef, requireMessageRecord } from "./_targets.ts";
import { type ActionContext, resolveAccount } from "./context.ts";

/** The message an edit or delete acts on. */
interface Target {
  account: Account;
  stored: StoredRecord | null;
  /** The record's id, else the requested id. */
  messageId: string;
  group: string[];
}

function resolveTarget(ctx: ActionContext, messageId: string): Target {
  if (!messageId) throw new BridgeError("INVALID_ARGUMENT", "message_id is required");
  const ref = parseMessageRef(messageId);
  const account = resolveAccount(ctx, ref.alias);
  const stored = ctx.store.records.findByMessageId(account.alias, messageId);
  requireMessageRecord(stored, messageId);
  gateMessage(ctx, account, messageId, stored);
  const { messageId: reported, group } = resolveChunkGroup(messageId, stored?.record);
  return { account, stored, messageId: reported, group };
}

/** Writes the lifecycle onto the record when at least one member succeeded. */
function record(
  ctx: ActionContext,
  target: Target,
  input: LifecycleInput & { edit?: EditResult },
): void {
  if (target.stored === null) return;
  const next = applyLifecycle(target.stored.record, input);
  if (next === null) return;
  ctx.store.records.update(target.account.alias, target.stored.id, {
    record: next,
    status: typeof next.status === "string" ? next.status : target.stored.status,
    chunkIds: Array.isArray(next.message_ids) ? next.message_ids as string[] : undefined,
  });
}

/** Runs `edit`. */
export async function edit(
  ctx: ActionContext,
  input: EditInput,
): Promise<Record<string, unknown>> {
  checkOutboundTextCap(input, ctx.config.limits.outboundTextCodePoints);
  const target = resolveTarget(ctx, input.message_id);
  const content = await normaliseOutbound({
    text: "text" in input ? input.text : undefined,
    content: "content" in input ? input.content : undefined,
  });
  const plan = await ctx.outbound.planner.planEdit(
    { record: target.stored?.record, group: target.group },
    content,
  );
  const outbox = target.account.outbox;
  const priority = plan.placeholder ? PRIORITY.update : PRIORITY.answer;
  const outcomes: MemberOutcome[] = [];
  for (const op of plan.operations) {
    const { chatId, messageId } = parseCompoundId(op.messageId);
    const outcome: MemberOutcome = { messageId: op.messageId, chunkIndex: op.chunkIndex };
    if (op.op === "delete") outcome.removed = true;
    try {
      if (op.op === "delete") await outbox.delete({ chatId, messageId, priority });
      else await outbox.edit({ chatId, messageId, priority, body: op.body, method: op.method });
    } catch (err) {
      outcome.error = asBridgeError(err);
    }
    outcomes.push(outcome);
  }
  const at = ctx.deps.clock.now();
  record(ctx, target, {
    operation: "edit",
    outcomes,
    at,
    edit: { content: plan.content, placeholder: plan.placeholder },
  });
  return withWarnings(
    lifecycleResponse({
      operation: "edit",
      outcomes,
      at,
      messageId: target.messageId,
      contentType: plan.contentType,
      placeholder: plan.placeholder,
    }),
    plan.degradations,
  );
}

/** Runs `delete`. */
export async function deleteMessage(
  ctx: ActionContext,
  input: DeleteInput,
): Promise<Record<string, unknown>> {
  const target = resolveTarget(ctx, input.message_id);
  const outcomes: MemberOutcome[] = [];
  for (const [i, member] of target.group.entries()) {
    const outcome: MemberOutcome = { messageId: member, chunkIndex: i + 1 };
    try {
      await target.account.outbox.delete(parseCompoundId(member));
    } catch (err) {
      outcome.error = asBridgeError(err);
    }
    outcomes.push(outcome);
  }
  const at = ctx.deps.clock.now();
  record(ctx, target, { operation: "delete", outcomes, at });
  return lifecycleResponse({ operation: "delete", outcomes, at, messageId: target.messageId });
}
