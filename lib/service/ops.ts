/**
 * The operational side of a running service that other processes read:
 * the health snapshot of every account's long connection (with its auth
 * state, `token_guard.ts`), persisted to the
 * store for `doctor` (at once when a state changes, otherwise at most every
 * few seconds and only when something changed), and the journal figures
 * that cost a KV scan (dedupe keys, dead-letter reasons), refreshed in the
 * background for the synchronous status when the journal admitted or
 * dead-lettered something since, or every few seconds for expiries; each read
 * is also persisted to the store for `doctor` (the waiting entries per chat,
 * the dead letters, the dedupe keys), read again every few seconds when the
 * journal changed and at least once a minute.
 * @module
 */

import type { Account } from "../account/mod.ts";
import type { Clock, Logger } from "../core/mod.ts";
import { authSummary, type LongConnectionStatus } from "../feishu/mod.ts";
import type { Journal } from "../journal/mod.ts";
import type { JournalSnapshot, Store } from "../store/mod.ts";

/** How often unchanged-state details (the last event, the last error) are written at most. */
export const HEALTH_INTERVAL_MS = 5000;
/** How old the journal figures may get before a status read refreshes them. */
export const JOURNAL_FIGURES_MAX_AGE_MS = 2000;
/** How old the persisted journal figures get at most while the server runs. */
export const JOURNAL_SNAPSHOT_MAX_AGE_MS = 60_000;

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

const rowOf = (alias: string, s: LongConnectionStatus, account?: Account): Row => {
  const auth = account?.api.auth?.();
  return {
    account: alias,
    state: s.state,
    since: s.since,
    lastEventAt: s.lastEventAt,
    lastError: s.lastError,
    auth: auth ? authSummary(auth) : null,
  };
};

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
      if (s) write(rowOf(a.alias, s, a));
    }
  };
  return {
    observe(alias, s) {
      const last = written.get(alias);
      const state = last ? (JSON.parse(last) as Row).state : null;
      if (state !== s.state) write(rowOf(alias, s, accounts.find((a) => a.alias === alias)));
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
  /** Reads the figures now (and persists them when the inspector has a sink). */
  refresh(): Promise<void>;
  /** Stops the background reads, waits for one under way, and persists a last read. */
  close(): Promise<void>;
}

/** Where the inspector persists each read for `doctor` (the store's `journalFigures`). */
export interface JournalFiguresSink {
  put(figures: JournalSnapshot): void;
}

/** Options of {@link createJournalInspector}. */
export interface JournalInspectorOptions {
  journal: Journal;
  clock: Clock;
  log: Logger;
  /** Cleans error texts (secrets, tokens) before they are shown or persisted. */
  redact?: (text: string) => string;
  /**
   * Persists every read. With a sink the inspector also reads on its own:
   * every {@link JOURNAL_FIGURES_MAX_AGE_MS} when the journal changed, and at
   * least every {@link JOURNAL_SNAPSHOT_MAX_AGE_MS}.
   */
  sink?: JournalFiguresSink;
}

/** Builds the inspector of one journal. */
export function createJournalInspector(options: JournalInspectorOptions): JournalInspector {
  const { journal, clock, log, sink } = options;
  const redact = options.redact ?? ((t: string) => t);
  let figures: JournalFigures | null = null;
  let readAt = Number.NEGATIVE_INFINITY;
  // What the journal had admitted and dead-lettered when last read: a change reads again.
  const version = () => {
    const s = journal.stats();
    return `${s.admitted}/${s.deadLetters}`;
  };
  // Anything the persisted snapshot shows (waiting entries, attempts) changed.
  const state = () => {
    const s = journal.stats();
    return `${s.admitted}/${s.processed}/${s.failures}/${s.deadLetters}/${s.pending}`;
  };
  let readVersion = "";
  let readState = "";
  let running: Promise<void> | null = null;
  let closed = false;
  let sinkFailed = false;
  const stop = new AbortController();

  const read = async () => {
    readVersion = version();
    readState = state();
    const [dedupe, dead, heads] = await Promise.all([
      journal.dedupeKeys(),
      journal.deadLetters(),
      sink ? journal.heads() : [],
    ]);
    figures = {
      dedupe_keys: dedupe,
      dead_letter_reasons: reasons(dead.map((d) => ({ error: redact(d.error) }))),
      as_of: "",
    };
    readAt = clock.now();
    figures.as_of = new Date(readAt).toISOString();
    if (!sink) return;
    try {
      sink.put(snapshotOf(journal, { dedupe, dead, heads }, redact));
      sinkFailed = false;
    } catch (err) {
      if (!sinkFailed) log.warn("journal figures not written", { error: String(err) });
      sinkFailed = true;
    }
  };
  const refresh = () => {
    if (closed) return Promise.resolve();
    running ??= read().catch((err) => log.debug("journal figures not read", { error: String(err) }))
      .finally(() => (running = null));
    return running;
  };
  const loop = sink
    ? (async () => {
      while (!stop.signal.aborted) {
        try {
          await clock.sleep(JOURNAL_FIGURES_MAX_AGE_MS, stop.signal);
        } catch {
          return;
        }
        if (state() !== readState || clock.now() - readAt >= JOURNAL_SNAPSHOT_MAX_AGE_MS) {
          await refresh();
        }
      }
    })()
    : null;
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
      stop.abort();
      await loop;
      await running;
      if (sink) {
        await read().catch((err) => log.debug("journal figures not read", { error: String(err) }));
      }
    },
  };
}

/** What one read persists: the figures doctor shows, errors cleaned. */
function snapshotOf(
  journal: Journal,
  read: {
    dedupe: number;
    dead: Awaited<ReturnType<Journal["deadLetters"]>>;
    heads: Awaited<ReturnType<Journal["heads"]>>;
  },
  redact: (text: string) => string,
): JournalSnapshot {
  const iso = (ms: number) => Number.isFinite(ms) ? new Date(ms).toISOString() : null;
  const fifo = read.heads.map((h) => ({
    account: h.account,
    chat: h.chatKey,
    depth: h.depth,
    attempts: h.attempts,
    last_error: h.lastError === null ? null : redact(h.lastError),
  }));
  return {
    pending: fifo.reduce((n, c) => n + c.depth, 0),
    fifo,
    dead_letter_count: Math.max(journal.stats().deadLetters, read.dead.length),
    dead_letters: read.dead.map((d) => ({
      account: d.account,
      chat: d.chatKey,
      seq: d.seq,
      attempts: d.attempts,
      error: redact(d.error),
      admitted_at: iso(d.admittedAt),
      dead_at: iso(d.deadAt),
    })),
    dedupe_keys: read.dedupe,
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
