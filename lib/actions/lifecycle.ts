/**
 * `edit` and `delete` (spec §2.7, §2.8, §3.8): act on the whole chunk group
 * of a logical message from any of its compound ids, one attempt per member
 * even after an earlier member failed, then record the lifecycle. An edit
 * re-materialises the new content over the group (ARCHITECTURE "Editing a
 * multi-chunk message"); a progress card stays a progress card.
 * @module
 */

import { BridgeError, parseCompoundId } from "../core/mod.ts";
import type { DeleteInput, EditInput } from "../mcp/family/mod.ts";
import {
  applyLifecycle,
  type EditResult,
  type LifecycleInput,
  lifecycleResponse,
  type MemberOutcome,
  normaliseOutbound,
  resolveChunkGroup,
} from "../outbound/mod.ts";
import type { StoredRecord } from "../store/mod.ts";
import { withWarnings } from "./_outgoing.ts";
import { accountOf, parseMessageRef, requireMessageRecord } from "./_targets.ts";
import type { AccountRuntime, ActionContext } from "./context.ts";
import type { OutboundRuntime } from "./outbound_runtime.ts";

/** The message an edit or delete acts on. */
interface Target {
  account: AccountRuntime;
  stored: StoredRecord | null;
  /** The record's id, else the requested id. */
  messageId: string;
  group: string[];
}

function resolveTarget(ctx: ActionContext, messageId: string): Target {
  if (!messageId) throw new BridgeError("INVALID_ARGUMENT", "message_id is required");
  const ref = parseMessageRef(messageId);
  const account = accountOf(ctx, ref.alias);
  const stored = ctx.store.records.findByMessageId(account.alias, messageId);
  requireMessageRecord(stored, messageId);
  const { messageId: reported, group } = resolveChunkGroup(messageId, stored?.record);
  return { account, stored, messageId: reported, group };
}

/** Any thrown value as a `BridgeError` (a bug below us becomes `UNKNOWN`). */
function asBridgeError(err: unknown): BridgeError {
  if (err instanceof BridgeError) return err;
  return new BridgeError("UNKNOWN", err instanceof Error ? err.message : String(err), {
    cause: err,
  });
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
  rt: OutboundRuntime,
  input: EditInput,
): Promise<Record<string, unknown>> {
  const target = resolveTarget(ctx, input.message_id);
  const content = await normaliseOutbound({
    text: "text" in input ? input.text : undefined,
    content: "content" in input ? input.content : undefined,
  }, { mode: "edit" });
  const plan = await rt.planner.planEdit(
    { record: target.stored?.record, group: target.group },
    content,
  );
  const api = target.account.api;
  const outcomes: MemberOutcome[] = [];
  for (const op of plan.operations) {
    const id = parseCompoundId(op.messageId).messageId;
    const outcome: MemberOutcome = { messageId: op.messageId, chunkIndex: op.chunkIndex };
    if (op.op === "delete") outcome.removed = true;
    try {
      if (op.op === "delete") await api.deleteMessage(id);
      else if (op.method === "PATCH") {
        await api.patchMessage({ messageId: id, content: op.body.content });
      } else {
        await api.updateMessage({
          messageId: id,
          msgType: op.body.msg_type,
          content: op.body.content,
        });
      }
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
      await target.account.api.deleteMessage(parseCompoundId(member).messageId);
    } catch (err) {
      outcome.error = asBridgeError(err);
    }
    outcomes.push(outcome);
  }
  const at = ctx.deps.clock.now();
  record(ctx, target, { operation: "delete", outcomes, at });
  return lifecycleResponse({ operation: "delete", outcomes, at, messageId: target.messageId });
}
