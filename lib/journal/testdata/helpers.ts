/**
 * Helpers shared by the journal tests: a temp journal, a clock that reports
 * each armed sleep, deferred promises and a captured log.
 * @module
 */

import { join } from "node:path";
import { createLogger, type Logger, ManualClock } from "../../core/mod.ts";
import { type Journal, openJournal } from "../mod.ts";
import type { JournalOptions } from "../types.ts";

/** A promise with its resolve exposed. */
export interface Deferred<T = void> {
  promise: Promise<T>;
  resolve(value: T): void;
}

/** Makes a {@link Deferred}. */
export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** Lets every ready timer, I/O callback and microtask run once (a zero-delay yield, not a wait). */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((r) => setTimeout(r, 0));
}

/** Yields to the event loop until `cond()` holds; a broken condition hangs the test. */
export async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await yieldToEventLoop();
}

/** A manual clock that also tells the test when a sleep is armed and for how long. */
export class SleepWatchClock extends ManualClock {
  #armed: number[] = [];
  #waiters: ((ms: number) => void)[] = [];

  override sleep(ms: number, signal?: AbortSignal): Promise<void> {
    const p = super.sleep(ms, signal);
    const w = this.#waiters.shift();
    if (w) w(ms);
    else this.#armed.push(ms);
    return p;
  }

  /** Resolves with the duration of the next sleep armed (or one armed already). */
  nextSleep(): Promise<number> {
    const ms = this.#armed.shift();
    if (ms !== undefined) return Promise.resolve(ms);
    return new Promise((r) => this.#waiters.push(r));
  }
}

/** A logger that keeps its lines. */
export function capturedLog(): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  return { log: createLogger({ sink: (l) => lines.push(l), now: () => 0 }), lines };
}

/** A temp directory holding one journal file, removed afterwards. */
export async function withTempDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "journal_test_" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Opens the journal of a temp dir with test defaults (manual clock, captured log). */
export function openTestJournal(
  dir: string,
  options: Partial<JournalOptions> = {},
): Promise<Journal> {
  return openJournal({
    path: join(dir, "queue.kv"),
    clock: options.clock ?? new ManualClock(1_000),
    log: options.log ?? capturedLog().log,
    ...options,
  });
}
