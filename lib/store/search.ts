/**
 * `search` off the main thread: a Worker with its own read-only connection and
 * a time budget. When the budget runs out the worker is terminated and the
 * matches found so far are returned, flagged as truncated.
 * @module
 */

import { type Clock, spawnWorker } from "../core/mod.ts";

/** A job posted to the worker. */
export interface SearchJob {
  jobId: number;
  dbPath: string;
  account: string;
  chatId: string | null;
  pattern: string;
  flags: string;
  cap: number;
}

/** A message from the worker. */
export type SearchReply =
  | { jobId: number; type: "started" }
  | { jobId: number; type: "match"; record: string }
  | { jobId: number; type: "done"; total: number }
  | { jobId: number; type: "error"; message: string };

/** What a search returns. */
export interface SearchOutcome {
  /** Matching records (parsed JSON), newest first, at most `cap`. */
  records: Record<string, unknown>[];
  /** All matches counted; a lower bound when `timedOut`. */
  total: number;
  timedOut: boolean;
}

/** Options of {@link Searcher.search}. */
export interface SearchOptions {
  account: string;
  chatId: string | null;
  /** A JavaScript regular expression source, matched case-insensitively. */
  pattern: string;
  cap?: number;
  budgetMs?: number;
  /** How long the worker may take to start scanning (module load, db open). */
  startupMs?: number;
}

/** Runs searches in a reusable worker. */
export class Searcher {
  #dbPath: string;
  #clock: Clock;
  #worker: Worker | null = null;
  #nextId = 1;
  #busy: Promise<unknown> = Promise.resolve();

  constructor(dbPath: string, clock: Clock) {
    this.#dbPath = dbPath;
    this.#clock = clock;
  }

  /** Searches; jobs run one at a time. The pattern must already compile. */
  search(options: SearchOptions): Promise<SearchOutcome> {
    const run = this.#busy.then(() => this.#run(options), () => this.#run(options));
    this.#busy = run.catch(() => {});
    return run;
  }

  #run(options: SearchOptions): Promise<SearchOutcome> {
    const worker = this.#worker ??= spawnWorker("search", {
      source: new URL("./search_worker.ts", import.meta.url),
    });
    const job: SearchJob = {
      jobId: this.#nextId++,
      dbPath: this.#dbPath,
      account: options.account,
      chatId: options.chatId,
      pattern: options.pattern,
      flags: "i",
      cap: options.cap ?? 50,
    };
    const records: Record<string, unknown>[] = [];
    const abort = new AbortController();
    return new Promise<SearchOutcome>((resolve, reject) => {
      const finish = (fn: () => void) => {
        abort.abort();
        worker.onmessage = null;
        worker.onerror = null;
        fn();
      };
      worker.onmessage = (ev: MessageEvent<SearchReply>) => {
        const m = ev.data;
        if (m.jobId !== job.jobId) return;
        if (m.type === "started") {
          startup.abort();
          startBudget();
        } else if (m.type === "match") records.push(JSON.parse(m.record));
        else if (m.type === "done") {
          finish(() => resolve({ records, total: m.total, timedOut: false }));
        } else finish(() => reject(new Error(`search failed: ${m.message}`)));
      };
      worker.onerror = (ev) => {
        ev.preventDefault();
        this.#kill();
        finish(() => reject(new Error(`search worker failed: ${ev.message}`)));
      };
      // The budget covers the scan, not the worker's start-up (module load, db open).
      const startBudget = () =>
        this.#clock.sleep(options.budgetMs ?? 5000, abort.signal).then(() => {
          this.#kill();
          finish(() => resolve({ records, total: records.length, timedOut: true }));
        }, () => {});
      // A worker that never starts (it crashed while loading, or lost the job)
      // must not hang the call forever.
      const startup = new AbortController();
      abort.signal.addEventListener("abort", () => startup.abort(), { once: true });
      this.#clock.sleep(options.startupMs ?? 15_000, startup.signal).then(() => {
        this.#kill();
        finish(() => reject(new Error("search worker did not start")));
      }, () => {});
      worker.postMessage(job);
    });
  }

  #kill(): void {
    this.#worker?.terminate();
    this.#worker = null;
  }

  /** Stops the worker. */
  close(): void {
    this.#kill();
  }
}
