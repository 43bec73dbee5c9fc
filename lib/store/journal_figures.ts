/**
 * The journal's latest figures (pending entries per chat, dead letters,
 * dedupe keys), written by the running server each time it reads them, so
 * `doctor`, which must not open the journal's KV file, can read them from
 * another process and say how old they are. One row, replaced in place.
 * @module
 */

import type { DatabaseSync } from "node:sqlite";

/** One chat's waiting entries and how its head entry fared. */
export interface JournalFifoFigure {
  account: string;
  chat: string;
  depth: number;
  /** Failed runs of the head entry. */
  attempts: number;
  last_error: string | null;
}

/** One dead letter, without its payload. */
export interface DeadLetterFigure {
  account: string;
  chat: string;
  seq: number;
  attempts: number;
  /** The last error, already free of secrets and tokens. */
  error: string;
  admitted_at: string | null;
  dead_at: string | null;
}

/** What the server knew of its journal when it wrote the snapshot. */
export interface JournalSnapshot {
  pending: number;
  fifo: JournalFifoFigure[];
  /** Every dead letter in the journal. */
  dead_letter_count: number;
  /** The dead letters read (at most 100, oldest chat first). */
  dead_letters: DeadLetterFigure[];
  /** Dedupe keys held (expired ones excluded). */
  dedupe_keys: number;
}

/** Data access for the journal figures snapshot. */
export class JournalFiguresStore {
  #db: DatabaseSync;
  #now: () => number;

  constructor(db: DatabaseSync, now: () => number) {
    this.#db = db;
    this.#now = now;
  }

  /** Replaces the snapshot; stamps it with the store's clock. */
  put(figures: JournalSnapshot): void {
    this.#db.prepare(
      `INSERT INTO journal_figures (id, figures, updated_at) VALUES (1, ?, ?)
       ON CONFLICT (id) DO UPDATE SET figures = excluded.figures, updated_at = excluded.updated_at`,
    ).run(JSON.stringify(figures), this.#now());
  }

  /** The snapshot, or null before the first write. */
  get(): { figures: JournalSnapshot; updatedAt: number } | null {
    return readJournalFigures(this.#db);
  }
}

/**
 * The snapshot from any connection to `store.db`; null when no server has
 * written one (or the store predates the table).
 */
export function readJournalFigures(
  db: DatabaseSync,
): { figures: JournalSnapshot; updatedAt: number } | null {
  const table = db.prepare(
    "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'journal_figures'",
  ).get();
  if (!table) return null;
  const row = db.prepare("SELECT figures, updated_at FROM journal_figures WHERE id = 1").get();
  if (!row) return null;
  return {
    figures: JSON.parse(String(row.figures)) as JournalSnapshot,
    updatedAt: Number(row.updated_at),
  };
}
