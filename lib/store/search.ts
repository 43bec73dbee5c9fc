/**
 * `search` off the main thread: a Worker (the core's `JobRunner`, one job at
 * a time) with its own read-only connection and a time budget. When the
 * budget runs out the worker is terminated and the matches found so far are
 * returned, flagged as truncated.
 * @module
 */

import { type Clock, type JobOutcome, JobRunner } from "../core/mod.ts";

/** A search as the searcher asks it. */
export interface SearchRequest {
  dbPath: string;
  account: string;
  chatId: string | null;
  pattern: string;
  flags: string;
  cap: number;
}

/** A search as the worker receives it: with the id its answers carry. */
export type SearchJob = SearchRequest & { id: number };

/** A message from the worker about one job. */
export type SearchReply =
  | { id: number; type: "started" }
  | { id: number; type: "match"; record: string }
  | { id: number; type: "done"; total: number }
  | { id: number; type: "error"; message: string };

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
  #runner: JobRunner<SearchRequest, SearchReply>;

  constructor(dbPath: string, clock: Clock) {
    this.#dbPath = dbPath;
    this.#runner = new JobRunner({
      kind: "search",
      source: new URL("./search_worker.ts", import.meta.url),
      clock,
      errors: {
        closed: () => new Error("search worker closed"),
        crashed: (message) => new Error(`search worker failed: ${message}`),
      },
    });
  }

  /** Searches; jobs run one at a time. The pattern must already compile. */
  search(options: SearchOptions): Promise<SearchOutcome> {
    const records: Record<string, unknown>[] = [];
    const budgetMs = options.budgetMs ?? 5000;
    const truncated = (): JobOutcome<SearchOutcome> => ({
      ok: true,
      value: { records, total: records.length, timedOut: true },
    });
    return this.#runner.run<SearchOutcome>({
      request: {
        dbPath: this.#dbPath,
        account: options.account,
        chatId: options.chatId,
        pattern: options.pattern,
        flags: "i",
        cap: options.cap ?? 50,
      },
      // A worker that never starts (it crashed while loading, or lost the job)
      // must not hang the call forever.
      limit: {
        ms: options.startupMs ?? 15_000,
        from: "dispatch",
        expire: () => ({ ok: false, error: new Error("search worker did not start") }),
      },
      answer: (m, job) => {
        // The budget covers the scan, not the worker's start-up (module load, db open).
        if (m.type === "started") job.limit(budgetMs, truncated);
        else if (m.type === "match") records.push(JSON.parse(m.record));
        else if (m.type === "done") {
          return { ok: true, value: { records, total: m.total, timedOut: false } };
        } else return { ok: false, error: new Error(`search failed: ${m.message}`) };
        return undefined;
      },
    });
  }

  /** Stops the worker. */
  close(): void {
    this.#runner.close();
  }
}
