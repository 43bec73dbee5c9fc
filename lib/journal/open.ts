/**
 * `openJournal`: opens the KV file, resolves the options and resumes what the
 * file holds.
 * @module
 */

import { dirname, join } from "node:path";
import { stateDir } from "../core/mod.ts";
import { scanJournal } from "./_scan.ts";
import { Journal } from "./journal.ts";
import type { JournalOptions } from "./types.ts";

/** Shortest dedupe lifetime accepted: 24 h. */
export const MIN_DEDUPE_TTL_MS = 24 * 60 * 60 * 1000;
/** Default dedupe lifetime: 7 days. */
export const DEFAULT_DEDUPE_TTL_MS = 7 * MIN_DEDUPE_TTL_MS;
/** Default runs of one entry before it is dead-lettered. */
export const DEFAULT_MAX_ATTEMPTS = 8;
/** Default bound on handlers running at once, across every chat. */
export const DEFAULT_MAX_RUNNING = 16;
/** Default delay after the first failure (doubling after each further one). */
export const DEFAULT_BACKOFF_BASE_MS = 1000;
/** Default upper bound of a retry delay. */
export const DEFAULT_BACKOFF_MAX_MS = 300_000;

/**
 * The KV file of a workdir: `<workdir>/feishu/queue.kv`.
 *
 * @example
 * ```ts
 * import { journalPath } from "./open.ts";
 * if (journalPath("/w") !== "/w/feishu/queue.kv") throw new Error();
 * ```
 */
export function journalPath(workdir: string): string {
  return join(stateDir(workdir), "queue.kv");
}

/**
 * Opens (creating if needed) the journal at `options.path`, scans it for
 * waiting entries and dead letters, and returns it unstarted: `admit` works at
 * once; call `start(handler)` to run the workers.
 */
export async function openJournal(options: JournalOptions): Promise<Journal> {
  const dedupeTtlMs = options.dedupeTtlMs ?? DEFAULT_DEDUPE_TTL_MS;
  if (!(dedupeTtlMs >= MIN_DEDUPE_TTL_MS)) {
    throw new RangeError(
      `Expected dedupeTtlMs to be at least ${MIN_DEDUPE_TTL_MS} but found ${dedupeTtlMs}`,
    );
  }
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) {
    throw new RangeError(
      `Expected maxAttempts to be an integer of at least 1 but found ${maxAttempts}`,
    );
  }
  const maxRunning = options.maxRunning ?? DEFAULT_MAX_RUNNING;
  if (!Number.isInteger(maxRunning) || maxRunning < 1) {
    throw new RangeError(
      `Expected maxRunning to be an integer of at least 1 but found ${maxRunning}`,
    );
  }
  await Deno.mkdir(dirname(options.path), { recursive: true });
  const kv = await Deno.openKv(options.path);
  try {
    const found = await scanJournal(kv);
    return new Journal(kv, {
      clock: options.clock,
      log: options.log,
      dedupeTtlMs,
      maxAttempts,
      maxRunning,
      backoff: {
        baseMs: options.backoff?.baseMs ?? DEFAULT_BACKOFF_BASE_MS,
        maxMs: options.backoff?.maxMs ?? DEFAULT_BACKOFF_MAX_MS,
      },
      found,
    });
  } catch (err) {
    kv.close();
    throw err;
  }
}
