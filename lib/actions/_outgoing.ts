/**
 * What `send` and `reply` share around the outbound send entry: its context
 * from the action's, the sent record written to the conversation log, and
 * warnings added to a result.
 * @module
 */

import { stateDir } from "../core/mod.ts";
import type { Degradation, SendContext } from "../outbound/mod.ts";
import type { SentMessageRecord } from "../store/mod.ts";
import type { ActionContext } from "./context.ts";

/** The send entry's context, from the action's. */
export function sendContext(ctx: ActionContext): SendContext {
  return {
    runtime: ctx.outbound,
    maxTextCodePoints: ctx.config.limits.outboundTextCodePoints,
    mediaRoots: ctx.config.mediaRoots,
    ownFiles: { stateDir: stateDir(ctx.launch.workdir), configPath: ctx.launch.configPath },
    newId: () => ctx.deps.newId(),
    now: () => ctx.deps.clock.now(),
    intents: ctx.store.intents,
  };
}

/**
 * Records the sent message (one record per logical message, every chunk id
 * indexed; a replay that completes a `partial` record replaces it), then
 * settles its intent. A store failure does not undo a delivery: it is logged
 * and returned as a warning (the intent stays open: the next start records it).
 */
export function persistSent(
  ctx: ActionContext,
  alias: string,
  sent: { record: SentMessageRecord; settle?(): void },
): string | undefined {
  const record = sent.record;
  try {
    ctx.conversation.record(alias, { kind: "sent", record });
    sent.settle?.();
    return undefined;
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    ctx.deps.log.error("sent record not saved", { id: record.id, error: reason });
    return `The message was delivered but its record could not be saved (${reason}); ` +
      "read will not show it.";
  }
}

/** Adds what the chunker had to compromise on, and any other warning, to a result. */
export function withWarnings<T extends Record<string, unknown>>(
  result: T,
  degradations: readonly Degradation[],
  extra?: string,
): T {
  const warnings = degradations.map((d) => d.detail);
  if (extra !== undefined) warnings.push(extra);
  if (warnings.length > 0) (result as Record<string, unknown>).warnings = warnings;
  return result;
}
