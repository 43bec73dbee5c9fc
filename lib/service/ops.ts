/**
 * The operational side of a running service that other processes read:
 * the health snapshot of every account's long connection, persisted to the
 * store for `doctor` (at once when a state changes, otherwise at most every
 * few seconds and only when something changed), and the journal figures
 * that cost a KV scan (dedupe keys, dead-letter reasons), refreshed in the
 * background for the synchronous status when the journal admitted or
 * dead-lettered something since, or every few seconds for expiries.
 * @module
 */

import type { Account } from "../account/mod.ts";
import type { Clock, Logger } from "../core/mod.ts";
import type { LongConnectionStatus } from "../feishu/mod.ts";
import type { Journal } from "../journal/mod.ts";
import type { Store } from "../store/mod.ts";

/** How often unchanged-state details (the last event, the last error) are written at most. */
export const HEALTH_INTERVAL_MS = 5000;
/** How old the journal figures may get before a status read refreshes them. */
export const JOURNAL_FIGURES_MAX_AGE_MS = 2000;

/** Writes the health snapshots. */
export interface HealthRecorder {
  /** The long connection's status observer (writes at once on a state change). */
  observe(alias: string, status: LongConnectionStatus): void;
  /** Starts the periodic write of the accounts' details. */
  start(accounts: readonly Account[]): void;
  /** Stops the loop and writes each account's final state. */
  close(): Promise<void>;
}

type Row = Parameters<Store["health"]["put"]>[0];

const rowOf = (alias: string, s: LongConnectionStatus): Row => ({
  account: alias,
  state: s.state,
  since: s.since,
  lastEventAt: s.lastEventAt,
  lastError: s.lastError,
});

/** Builds the recorder over the store's `health` table. */
export function createHealthRecorder(
  options: { store: Store; clock: Clock; log: Logger },
): HealthRecorder {
  const { store, clock, log } = options;
  const written = new Map<string, string>();
  const stop = new AbortController();
  let accounts: readonly Account[] = [];
  let loop: Promise<void> | null = null;
  let failed = false;

  const write = (row: Row) => {
    const key = JSON.stringify(row);
    if (written.get(row.account) === key) return;
    try {
      store.health.put(row);
      written.set(row.account, key);
      failed = false;
    } catch (err) {
      if (!failed) log.warn("health snapshot not written", { error: String(err) });
      failed = true;
    }
  };
  const sweep = () => {
    for (const a of accounts) {
      const s = a.connection.status();
      if (s) write(rowOf(a.alias, s));
    }
  };
  return {
    observe(alias, s) {
      const last = written.get(alias);
      const state = last ? (JSON.parse(last) as Row).state : null;
      if (state !== s.state) write(rowOf(alias, s));
    },
    start(list) {
      accounts = list;
      sweep();
      loop = (async () => {
        while (!stop.signal.aborted) {
          try {
            await clock.sleep(HEALTH_INTERVAL_MS, stop.signal);
          } catch {
            return;
          }
          sweep();
        }
      })();
    },
    async close() {
      stop.abort();
      await loop;
      sweep();
    },
  };
}

/** The journal figures the status shows beside the journal's own counters. */
export interface JournalFigures {
  dedupe_keys: number;
  /** Dead letters grouped by their last error, most frequent first (at most 10). */
  dead_letter_reasons: { error: string; count: number }[];
  /** When these were read (ISO). */
  as_of: string;
}

/** Keeps {@link JournalFigures} fresh enough without blocking a status read. */
export interface JournalInspector {
  /** The latest figures (kicks a refresh when they are old), or null before the first read. */
  figures(): JournalFigures | null;
  /** Reads the figures now. */
  refresh(): Promise<void>;
  /** Waits for a refresh under way. */
  close(): Promise<void>;
}

/** Builds the inspector of one journal. */
export function createJournalInspector(
  options: { journal: Journal; clock: Clock; log: Logger; redact?: (text: string) => string },
): JournalInspector {
  const { journal, clock, log } = options;
  const redact = options.redact ?? ((t: string) => t);
  let figures: JournalFigures | null = null;
  let readAt = Number.NEGATIVE_INFINITY;
  // What the journal had admitted and dead-lettered when last read: a change reads again.
  const version = () => {
    const s = journal.stats();
    return `${s.admitted}/${s.deadLetters}`;
  };
  let readVersion = "";
  let running: Promise<void> | null = null;
  let closed = false;

  const read = async () => {
    readVersion = version();
    const [dedupe, dead] = await Promise.all([journal.dedupeKeys(), journal.deadLetters()]);
    figures = {
      dedupe_keys: dedupe,
      dead_letter_reasons: reasons(dead.map((d) => ({ error: redact(d.error) }))),
      as_of: "",
    };
    readAt = clock.now();
    figures.as_of = new Date(readAt).toISOString();
  };
  const refresh = () => {
    if (closed) return Promise.resolve();
    running ??= read().catch((err) => log.debug("journal figures not read", { error: String(err) }))
      .finally(() => (running = null));
    return running;
  };
  return {
    figures() {
      if (clock.now() - readAt >= JOURNAL_FIGURES_MAX_AGE_MS || version() !== readVersion) {
        void refresh();
      }
      return figures;
    },
    refresh,
    async close() {
      closed = true;
      await running;
    },
  };
}

/**
 * Dead letters grouped by error text, most frequent first, at most 10.
 *
 * @example
 * ```ts
 * import { reasons } from "./ops.ts";
 * const r = reasons([{ error: "b" }, { error: "a" }, { error: "b" }]);
 * if (JSON.stringify(r) !== '[{"error":"b","count":2},{"error":"a","count":1}]') throw new Error();
 * ```
 */
export function reasons(letters: readonly { error: string }[]): { error: string; count: number }[] {
  const by = new Map<string, number>();
  for (const l of letters) by.set(l.error, (by.get(l.error) ?? 0) + 1);
  return [...by].map(([error, count]) => ({ error, count }))
    .sort((a, b) => b.count - a.count || a.error.localeCompare(b.error)).slice(0, 10);
}
