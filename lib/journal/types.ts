/**
 * The public shapes of the intake journal: what `admit` takes, what a worker
 * hands to the handler, the options of `openJournal` and the status snapshot.
 * @module
 */

import { type Clock, type Logger, storageFault } from "../core/mod.ts";

/** A JSON value: what a journal entry carries (the raw event envelope). */
export type JsonValue =
  | null
  | boolean
  | number
  | string
  | JsonValue[]
  | { [key: string]: JsonValue };

/** One event to admit; see `Journal.admit`. */
export interface AdmitInput {
  /** Account alias the event arrived on; dedupe keys are scoped to it. */
  account: string;
  /** The ordering domain, e.g. a chat id; one worker runs per (account, chatKey). */
  chatKey: string;
  /**
   * Keys that identify the event (`event_id`, and `message_id` for messages).
   * If any of them was admitted before on this account, the event is a duplicate.
   */
  dedupeKeys: readonly string[];
  /** The event itself, stored durably as JSON. */
  payload: JsonValue;
}

/** Outcome of `Journal.admit`. */
export type AdmitResult = "queued" | "duplicate";

/** One unit of work handed to the handler, oldest first per chat. */
export interface Job {
  account: string;
  chatKey: string;
  /** The entry's sequence number: unique per journal, increasing in arrival order. */
  seq: number;
  payload: JsonValue;
  /** 1 on the first run; counts failed runs persisted before this one, plus one. */
  attempt: number;
  /** Aborted when the journal closes; a handler that stops early should throw. */
  signal: AbortSignal;
}

/**
 * Processes one job. Resolve to consume the entry; throw to have it retried
 * (with backoff) and, after the last attempt, dead-lettered. Must be
 * idempotent: after a crash, the job that was running is run again.
 */
export type JobHandler = (job: Job) => Promise<void> | void;

/** Bounded exponential backoff between failed attempts. */
export interface BackoffOptions {
  /** Delay after the first failure, in ms (default 1000). */
  baseMs?: number;
  /** Upper bound of any delay, in ms (default 300000). */
  maxMs?: number;
}

/** Options of `openJournal`. */
export interface JournalOptions {
  /** The KV file, normally `<workdir>/feishu/queue.kv` (see `journalPath`). */
  path: string;
  clock: Clock;
  log: Logger;
  /** How long a dedupe key lives, in ms; at least 24 h (default 7 days). */
  dedupeTtlMs?: number;
  /** Runs of one entry before it is dead-lettered (default 8). */
  maxAttempts?: number;
  /**
   * Handlers running at once across every chat (default 16). Chats beyond it
   * wait their turn, first come first served; a chat waiting out a retry
   * backoff holds no slot.
   */
  maxRunning?: number;
  backoff?: BackoffOptions;
}

/** Depth of one chat's FIFO. */
export interface ChatDepth {
  account: string;
  chatKey: string;
  /** Entries waiting, including the one being processed. */
  depth: number;
}

/** One chat's FIFO and the entry at its head (the one being tried). */
export interface ChatHead extends ChatDepth {
  /** Failed runs of the head entry so far. */
  attempts: number;
  /** The head entry's last error, or null when it has not failed. */
  lastError: string | null;
}

/** A snapshot for the status resource; counters cover this process's lifetime. */
export interface JournalStats {
  /** Non-empty FIFOs only. */
  fifo: ChatDepth[];
  /** Entries waiting across every chat. */
  pending: number;
  /** Handlers running right now (at most `maxRunning`). */
  inFlight: number;
  /** Chats whose next entry is due and waits for a free slot under `maxRunning`. */
  waiting: number;
  /** Entries in the dead-letter prefix (all time, not only this process). */
  deadLetters: number;
  admitted: number;
  duplicates: number;
  /** Entries whose handler resolved and whose deletion committed. */
  processed: number;
  /** Handler runs that threw (each retry counts). */
  failures: number;
  /** KV errors outside the handler (the worker retried after the base delay). */
  faults: number;
}

/** An entry that exhausted its attempts. */
export interface DeadLetter {
  account: string;
  chatKey: string;
  seq: number;
  payload: JsonValue;
  attempts: number;
  /** The last error's text. */
  error: string;
  /** Clock time of admission and of dead-lettering, in ms. */
  admittedAt: number;
  deadAt: number;
}

/**
 * Thrown by a handler that cannot process its job yet (a precondition, not a
 * failure): the entry stays at the head of its chat, is tried again after
 * `afterMs`, and the attempt is not counted — it is never dead-lettered for it.
 */
export class RetryLater extends Error {
  readonly afterMs: number;

  constructor(message: string, afterMs: number) {
    super(message);
    this.name = "RetryLater";
    this.afterMs = afterMs;
  }
}

/**
 * Thrown by a handler whose job can never succeed, whatever the number of
 * attempts (the event's data itself is the problem and not even a
 * placeholder could be made of it): the entry is dead-lettered at once, so
 * the chat's next events do not wait behind retries that would all fail.
 */
export class PermanentFailure extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "PermanentFailure";
  }
}

/** What the journal does with an entry whose handler threw. */
export type FailureStep = "postpone" | "retry" | "dead";

/**
 * The journal's one classification of a failed run: a {@link RetryLater} is
 * postponed without spending an attempt, and so is a full or read-only disk
 * (`storageFault`: the one failure that is never the job's, and that would
 * otherwise dead-letter every job of a long outage); a
 * {@link PermanentFailure} is dead-lettered at once; anything else is
 * transient — retried after a backoff until `maxAttempts` runs, then
 * dead-lettered. Beyond the disk, the journal never guesses from an error's
 * type: only the handler knows whether its data or its surroundings failed.
 *
 * @example
 * ```ts
 * import { failureStep, PermanentFailure, RetryLater } from "./types.ts";
 * if (failureStep(new RetryLater("wait", 10), 8, 8) !== "postpone") throw new Error();
 * if (failureStep(new PermanentFailure("bad data"), 1, 8) !== "dead") throw new Error();
 * if (failureStep(new RangeError("x"), 1, 8) !== "retry") throw new Error();
 * if (failureStep(new Error("down"), 8, 8) !== "dead") throw new Error();
 * if (failureStep(new Error("database or disk is full"), 8, 8) !== "postpone") throw new Error();
 * ```
 */
export function failureStep(failure: unknown, attempt: number, maxAttempts: number): FailureStep {
  if (failure instanceof RetryLater || storageFault(failure) !== null) return "postpone";
  if (failure instanceof PermanentFailure) return "dead";
  return attempt >= maxAttempts ? "dead" : "retry";
}
