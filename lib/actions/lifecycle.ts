/**
 * `edit` and `delete`: act on the whole chunk group of a logical message from
 * any of its compound ids, one attempt per member even after an earlier
 * member failed, then record the lifecycle. An edit re-materialises the new
 * content over the group (same chunk count: each edited; fewer: the extra
 * ones deleted; more: refused before any I/O); a progress card stays a
 * progress card. Every call goes through the account's outbox in the chat's
 * lane; an edit of a progress card waits behind the chat's answers. Once an
 * answer lands in a chat, its open progress cards get their finished frame
 * (`finishProgress`), so none is left showing ⏳ after the work is done.
 * @module
 */

import type { Account } from "../account/mod.ts";
import { asBridgeError, BridgeError, parseCompoundId } from "../core/mod.ts";
import type { DeleteInput, EditInput } from "../mcp/family/mod.ts";
import {
  applyLifecycle,
  checkOutboundTextCap,
  type EditPlan,
  type EditResult,
  finishedProgressContent,
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
  const { outcomes, at } = await runEdit(ctx, target, plan);
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

/** Sends a planned edit, one attempt per member, and records it. */
async function runEdit(
  ctx: ActionContext,
  target: Target,
  plan: EditPlan,
  finished = false,
): Promise<{ outcomes: MemberOutcome[]; at: number }> {
  const outbox = target.account.outbox;
  const priority = plan.placeholder || finished ? PRIORITY.update : PRIORITY.answer;
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
    edit: { content: plan.content, placeholder: plan.placeholder || finished, finished },
  });
  return { outcomes, at };
}

/** How far back in a chat an open progress card is looked for. */
const PROGRESS_LOOKBACK = 20;

/**
 * Progress cards being finished, per store (one per service): the record
 * turns `sent` only once the card update returns, and an answer sent
 * meanwhile must not finish the same card again.
 */
const finishing = new WeakMap<object, Set<string>>();

/**
 * Gives the chat's open progress cards (among its last records) their
 * finished frame, after an answer landed there. Not awaited by the answer:
 * the card updates wait behind it in the chat's lane; a failure is logged
 * and the card stays open (the agent can still edit it).
 */
export function finishProgress(ctx: ActionContext, account: Account, chatId: string): void {
  let busy = finishing.get(ctx.store);
  if (!busy) finishing.set(ctx.store, busy = new Set());
  const open = ctx.store.records.listChat(account.alias, chatId, PROGRESS_LOOKBACK)
    .filter((r) => r.kind === "sent" && r.status === "placeholder");
  for (const stored of open) {
    const key = `${account.alias}\u0000${stored.id}`;
    const content = "content" in stored.record
      ? finishedProgressContent(stored.record.content)
      : null;
    if (content === null || busy.has(key)) continue;
    busy.add(key);
    const { messageId, group } = resolveChunkGroup(stored.id, stored.record);
    const target: Target = { account, stored, messageId, group };
    // Planned as a plain card edit: the progress wrapping would put the hourglass back.
    const plain = { ...stored.record, placeholder: false, status: "sent" };
    ctx.outbound.planner.planEdit({ record: plain, group }, content)
      .then((plan) => runEdit(ctx, target, plan, true))
      .catch((err) =>
        ctx.deps.log.warn("progress card not finished", {
          account: account.alias,
          id: stored.id,
          error: err instanceof Error ? err.message : String(err),
        })
      )
      .finally(() => busy.delete(key));
  }
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
