/**
 * The KV key layout of the journal (documented in `mod.ts`) and the stored
 * value shapes. Every key starts with `"journal"` so the file can host other
 * prefixes later.
 * @module
 */

/** Root of every journal key. */
export const ROOT = "journal";

/** `["journal", "dedupe", account, key]`: an admitted dedupe key. */
export function dedupeKey(account: string, key: string): Deno.KvKey {
  return [ROOT, "dedupe", account, key];
}

/** `["journal", "dedupe"]`: prefix of every dedupe key. */
export const DEDUPE_PREFIX: Deno.KvKey = [ROOT, "dedupe"];

/** `["journal", "fifo"]`: prefix of every chat FIFO. */
export const FIFO_PREFIX: Deno.KvKey = [ROOT, "fifo"];

/** `["journal", "fifo", account, chatKey]`: one chat's FIFO. */
export function fifoPrefix(account: string, chatKey: string): Deno.KvKey {
  return [ROOT, "fifo", account, chatKey];
}

/** `["journal", "fifo", account, chatKey, seq]`: one FIFO entry. */
export function fifoKey(account: string, chatKey: string, seq: number): Deno.KvKey {
  return [ROOT, "fifo", account, chatKey, seq];
}

/** `["journal", "body", seq, part]`: one part of a payload too large to inline. */
export function bodyKey(seq: number, part: number): Deno.KvKey {
  return [ROOT, "body", seq, part];
}

/** `["journal", "probe"]`: written and deleted to learn whether the file is writable. */
export const PROBE_KEY: Deno.KvKey = [ROOT, "probe"];

/** Parts of a payload too large for the intake commit, written before it. */
export const STAGED_PREFIX: Deno.KvKey = [ROOT, "staged"];

/** One part of a staged payload. */
export function stagedKey(bodyId: string, part: number): Deno.KvKey {
  return [ROOT, "staged", bodyId, part];
}

/** Where part `i` of an entry's payload lives. */
export function partKey(seq: number, stored: StoredBody, part: number): Deno.KvKey {
  return stored.staged === undefined ? bodyKey(seq, part) : stagedKey(stored.staged, part);
}

/** `["journal", "dead"]`: prefix of every dead letter. */
export const DEAD_PREFIX: Deno.KvKey = [ROOT, "dead"];

/** `["journal", "dead", account, chatKey, seq]`: an entry that exhausted its attempts. */
export function deadKey(account: string, chatKey: string, seq: number): Deno.KvKey {
  return [ROOT, "dead", account, chatKey, seq];
}

/** How a payload is stored: inline bytes, or `parts` body keys. */
export interface StoredBody {
  /** UTF-8 JSON of the payload when it fits in the entry. */
  body?: Uint8Array;
  /** Number of `bodyKey` parts; 0 when inline. */
  parts: number;
  /** Set when the parts were staged (`stagedKey`) before the intake commit. */
  staged?: string;
}

/** Value under a `fifoKey`. */
export interface FifoValue extends StoredBody {
  admittedAt: number;
  /** Failed runs so far. */
  attempts: number;
  /** Clock time before which the next run must not start (0 = now). */
  retryAt: number;
  lastError?: string;
}

/** Value under a `deadKey`. */
export interface DeadValue extends StoredBody {
  admittedAt: number;
  attempts: number;
  error: string;
  deadAt: number;
}

/** Value under a `dedupeKey`. */
export interface DedupeValue {
  seq: number;
  at: number;
}

/**
 * The in-memory name of a chat; the NUL separator cannot occur in either part.
 *
 * @example
 * ```ts
 * import { chatId } from "./_keys.ts";
 * if (chatId("a", "b:c") === chatId("a:b", "c")) throw new Error();
 * ```
 */
export function chatId(account: string, chatKey: string): string {
  return `${account}\u0000${chatKey}`;
}
