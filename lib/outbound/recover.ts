/**
 * Start-up recovery of sends a crash cut off: every intent still `open` is
 * settled by {@link recoveryDecision}. Within Feishu's uuid window the send
 * is finished: every chunk goes out again under its uuid (Feishu answers the
 * ones it already has, so nothing is posted twice) and the result is
 * recorded, complete or partial. Past the window what was delivered is
 * recorded as a partial record whose next chunk is of unknown fate. Then
 * intents older than a day are deleted.
 * @module
 */

import { BridgeError, type Logger } from "../core/mod.ts";
import type { DeliveredChunk, IntentStore, SendIntent, SentMessageRecord } from "../store/mod.ts";
import {
  recoveryDecision,
  type SendPlan,
  type SentChunk,
  sentChunk,
  storedChunk,
} from "./intents.ts";
import type { Outbox } from "./outbox.ts";
import { routeOf, type SendTarget, sentOutcome } from "./send.ts";

/** How long intents are kept (a repeat only looks 45 minutes back). */
export const INTENT_KEEP_MS = 24 * 3_600_000;

/** What recovery works with. */
export interface RecoveryPorts {
  intents: Pick<IntentStore, "unfinished" | "delivered" | "settle" | "prune">;
  /** Each account's alias and outbox. */
  accounts: readonly { alias: string; outbox: Pick<Outbox, "deliver"> }[];
  /** Whether the account has a sent record whose first chunk is this Feishu message. */
  recorded(alias: string, feishuMessageId: string): boolean;
  /** Writes a sent record (the conversation log). */
  record(alias: string, record: SentMessageRecord): void;
  now(): number;
  log: Logger;
}

/** What recovery did, by decision. */
export interface RecoveryCounts {
  close: number;
  finish: number;
  partial: number;
  drop: number;
}

/** The chunks known delivered without a gap from the first one. */
function deliveredPrefix(chunks: readonly DeliveredChunk[]): SentChunk[] {
  const byIndex = new Map(chunks.map((c) => [c.index, c]));
  const out: SentChunk[] = [];
  for (let i = 0; byIndex.has(i); i++) out.push(sentChunk(byIndex.get(i)!));
  return out;
}

/** The error a partial record of a cut-off send carries. */
function cutOffError(resent: boolean): BridgeError {
  return new BridgeError(
    "UNKNOWN",
    resent
      ? "The server stopped during this send; on restart the rest could not be delivered"
      : "The server stopped during this send and restarted after Feishu's uuid window, so the " +
        "rest was not sent; the next chunk may have arrived just before the stop",
    { retryable: false },
  );
}

/** Settles one intent; returns what was decided. */
async function recoverOne(
  ports: RecoveryPorts,
  outbox: Pick<Outbox, "deliver">,
  intent: SendIntent,
): Promise<keyof RecoveryCounts> {
  const { account: alias, id } = intent;
  const plan = intent.plan as unknown as SendPlan;
  const first = intent.delivered.find((c) => c.index === 0);
  const decision = recoveryDecision(
    { createdAt: intent.createdAt, delivered: intent.delivered.length },
    { now: ports.now(), recorded: first ? ports.recorded(alias, first.message_id) : false },
  );
  let chunks = deliveredPrefix(intent.delivered);
  let failure: BridgeError | undefined;
  let unknown = true;
  if (decision === "finish") {
    const outcome = await outbox.deliver({
      route: routeOf(plan.target as SendTarget),
      bodies: intent.bodies,
      uuids: intent.uuids,
      onDelivered: (k, m) => ports.intents.delivered(alias, id, storedChunk(k, m)),
    });
    if (outcome.delivered.length >= chunks.length) {
      chunks = outcome.delivered;
      unknown = outcome.unknown === true;
      failure = outcome.failure;
    } else failure = cutOffError(true);
  } else if (decision === "partial") failure = cutOffError(false);
  if (decision !== "close" && chunks.length > 0) {
    const { record } = sentOutcome(plan, chunks, {
      at: intent.createdAt,
      chunkCount: intent.bodies.length,
      failure: chunks.length < intent.bodies.length
        ? failure ?? cutOffError(decision === "finish")
        : undefined,
      unknown,
      fallbackChat: "",
    });
    ports.record(alias, record);
  }
  // Nothing delivered and nothing recorded: a repeat may still take it over.
  ports.intents.settle(alias, id, chunks.length > 0 ? "recovered" : "incomplete");
  return decision;
}

/**
 * Settles every intent a crash left open, account by account, oldest first.
 * A failure settles nothing of that intent (the next start tries again) and
 * never stops the others.
 */
export async function recoverSends(ports: RecoveryPorts): Promise<RecoveryCounts> {
  const counts: RecoveryCounts = { close: 0, finish: 0, partial: 0, drop: 0 };
  const started = ports.now();
  for (const { alias, outbox } of ports.accounts) {
    for (const intent of ports.intents.unfinished(alias)) {
      try {
        const decision = await recoverOne(ports, outbox, intent);
        counts[decision]++;
        ports.log.info("send recovered after a restart", { account: alias, decision });
      } catch (err) {
        ports.log.warn("send not recovered", {
          account: alias,
          error: err instanceof Error ? err.message : String(err),
        });
      }
    }
  }
  // After recovery: an intent that old is settled, or of an account no longer configured.
  ports.intents.prune(started - INTENT_KEEP_MS);
  return counts;
}
