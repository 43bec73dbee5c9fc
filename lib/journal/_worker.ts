/**
 * One chat's worker: reads the oldest FIFO entry, runs the handler, deletes
 * the entry in an atomic commit, then the next; a failure is persisted on the
 * entry and retried after a backoff on the injected clock, and an entry that
 * exhausts its attempts — or whose handler says it can never succeed
 * (`PermanentFailure`) — moves to the dead-letter prefix (see `failureStep`).
 * The journal runs at most one worker per chat, and a worker holds one of the
 * journal's `maxRunning` slots only while it reads a due entry's payload, runs
 * its handler and commits the outcome.
 * @module
 */

import { failureStep, RetryLater } from "./types.ts";
import {
  type Clock,
  exponentialDelay,
  type Logger,
  storageErrorText,
  yieldToIO,
} from "../core/mod.ts";
import { decodeBody, readParts } from "./_body.ts";
import type { Slots } from "./_slots.ts";
import { deadKey, type DeadValue, fifoKey, fifoPrefix, type FifoValue, partKey } from "./_keys.ts";
import type { BackoffOptions, JobHandler, JsonValue } from "./types.ts";

/** What a worker needs from its journal. */
export interface WorkerHost {
  kv: Deno.Kv;
  clock: Clock;
  log: Logger;
  handler: JobHandler;
  /** Aborted when the journal closes. */
  signal: AbortSignal;
  maxAttempts: number;
  /** The journal-wide bound on handlers running at once. */
  slots: Slots;
  /** Bounded exponential: `baseMs` after the first failure, doubling, at most `maxMs`. */
  backoff: Required<BackoffOptions>;
  /** Settles when every admit of this chat called before `seq` settled; null if none. */
  earlierAdmits(seq: number): Promise<unknown> | null;
  /** Set by a kick while the worker runs; the worker reads it before exiting. */
  dirty: boolean;
  /** Called once, synchronously, when the worker decides to stop. */
  exit(): void;
  /** Reports handler runs and their outcome. */
  report(event: "start" | "end" | "processed" | "failed" | "dead" | "fault"): void;
}

type Head = Deno.KvEntry<FifoValue>;

/** Wait before running again a job that failed on a full or read-only disk. */
export const STORAGE_RETRY_MS = 2000;

/**
 * Drains one chat's FIFO until it is empty (and no kick came in meanwhile) or
 * the journal closes.
 */
export async function runChatWorker(
  host: WorkerHost,
  chat: { account: string; chatKey: string },
): Promise<void> {
  try {
    while (!host.signal.aborted) {
      host.dirty = false;
      let head: Head | null;
      try {
        head = await readHead(host.kv, chat);
        if (head === null) {
          if (host.dirty) continue;
          return;
        }
        const earlier = host.earlierAdmits(head.key[4] as number);
        if (earlier) {
          await earlier;
          continue;
        }
        const wait = head.value.retryAt - host.clock.now();
        if (wait > 0) {
          await host.clock.sleep(wait, host.signal);
          continue;
        }
        // The slot is taken only now that the entry is due: a chat waiting out
        // a backoff or an earlier admit never keeps another chat from running.
        // It also covers the commit of the outcome: released before it, a
        // flood's deletes pile up in the KV queue ahead of admits and delay
        // their ACKs (measured with bench/flood_bench.ts).
        // Between entries the loop reads its sockets first (core/yield.ts): a
        // frame waiting for its ACK never queues behind a burst being drained.
        await yieldToIO();
        const release = await host.slots.acquire();
        try {
          await runHead(host, chat, head);
        } finally {
          release();
        }
      } catch (err) {
        if (host.signal.aborted) return;
        // A KV fault outside the handler: report it and retry after the base
        // delay instead of letting the chat stall until the next admit.
        host.report("fault");
        host.log.error("journal worker fault", { ...chat, error: storageErrorText(err) });
        await host.clock.sleep(exponentialDelay(1, host.backoff), host.signal).catch((e) => {
          if (!host.signal.aborted) throw e;
        });
      }
    }
  } finally {
    host.exit();
  }
}

async function readHead(
  kv: Deno.Kv,
  chat: { account: string; chatKey: string },
): Promise<Head | null> {
  for await (
    const entry of kv.list<FifoValue>({ prefix: fifoPrefix(chat.account, chat.chatKey) }, {
      limit: 1,
    })
  ) {
    return entry;
  }
  return null;
}

async function readPayload(kv: Deno.Kv, seq: number, value: FifoValue): Promise<JsonValue> {
  const keys = Array.from({ length: value.parts }, (_, i) => partKey(seq, value, i));
  return decodeBody(value, await readParts(kv, keys));
}

async function runHead(
  host: WorkerHost,
  chat: { account: string; chatKey: string },
  head: Head,
): Promise<void> {
  const seq = head.key[4] as number;
  const attempt = head.value.attempts + 1;
  let failure: unknown = null;
  host.report("start");
  try {
    const payload = await readPayload(host.kv, seq, head.value);
    await host.handler({ ...chat, seq, payload, attempt, signal: host.signal });
  } catch (err) {
    failure = err ?? new Error("Handler threw a nullish value");
  } finally {
    host.report("end");
  }
  if (failure === null) return consume(host, head, seq);
  // A run cut short by close() is not a failed attempt: the entry stays as it was.
  if (host.signal.aborted) return;
  const step = failureStep(failure, attempt, host.maxAttempts);
  if (step === "postpone") {
    // Not the job's failure: wait and try again, without spending an attempt.
    const afterMs = failure instanceof RetryLater ? failure.afterMs : STORAGE_RETRY_MS;
    const next: FifoValue = { ...head.value, retryAt: host.clock.now() + afterMs };
    await commitOrThrow(host.kv.atomic().check(head).set(head.key, next), "postpone an entry");
    if (failure instanceof RetryLater) {
      host.log.debug("journal entry postponed", { ...chat, seq, reason: failure.message });
    } else {
      host.log.warn("journal entry postponed: storage not writable", {
        ...chat,
        seq,
        error: storageErrorText(failure),
      });
    }
    return;
  }
  const error = errorText(failure);
  const ctx = { ...chat, seq, attempt, error };
  if (step === "dead") {
    await deadLetter(host, head, { seq, error, attempts: attempt });
    host.report("dead");
    host.log.error(
      attempt >= host.maxAttempts
        ? "journal entry dead-lettered after its last attempt"
        : "journal entry dead-lettered at once: its handler says it can never succeed",
      ctx,
    );
    return;
  }
  const retryAt = host.clock.now() + exponentialDelay(attempt, host.backoff);
  const next: FifoValue = { ...head.value, attempts: attempt, retryAt, lastError: error };
  await commitOrThrow(host.kv.atomic().check(head).set(head.key, next), "record a failed attempt");
  host.report("failed");
  host.log.warn("journal handler failed; will retry", { ...ctx, retryAt });
}

async function consume(host: WorkerHost, head: Head, seq: number): Promise<void> {
  const op = host.kv.atomic().check(head).delete(head.key);
  for (let i = 0; i < head.value.parts; i++) op.delete(partKey(seq, head.value, i));
  await commitOrThrow(op, "delete a processed entry");
  host.report("processed");
}

async function deadLetter(
  host: WorkerHost,
  head: Head,
  fate: { seq: number; error: string; attempts: number },
): Promise<void> {
  const [, , account, chatKey] = head.key as [string, string, string, string, number];
  const dead: DeadValue = {
    body: head.value.body,
    parts: head.value.parts,
    ...(head.value.staged === undefined ? {} : { staged: head.value.staged }),
    admittedAt: head.value.admittedAt,
    attempts: fate.attempts,
    error: fate.error,
    deadAt: host.clock.now(),
  };
  if (dead.body === undefined) delete dead.body;
  // Body parts stay under their sequence number; the dead letter points at them.
  const op = host.kv.atomic().check(head).delete(fifoKey(account, chatKey, fate.seq))
    .set(deadKey(account, chatKey, fate.seq), dead);
  await commitOrThrow(op, "dead-letter an entry");
}

async function commitOrThrow(op: Deno.AtomicOperation, what: string): Promise<void> {
  const res = await op.commit();
  if (!res.ok) {
    throw new Error(
      `Expected to ${what} with an unchanged entry but found it changed by another writer`,
    );
  }
}

/** The text of an error for logs and dead letters. */
export function errorText(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return String(err);
}
