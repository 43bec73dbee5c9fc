/**
 * What the Task Cards' writes came to, for status: counts per kind of write
 * and the last failure (logged as it happens).
 * @module
 */

import type { Logger } from "../core/mod.ts";
import type { TaskCardStatus } from "./contract.ts";
import type { ResidentOutcome } from "./resident.ts";

/** The counters of card writes. */
export class WriteTally {
  readonly writes: TaskCardStatus["writes"] = {
    edited: 0,
    sent: 0,
    rotated: 0,
    deleted: 0,
    unchanged: 0,
    failed: 0,
  };
  lastError: TaskCardStatus["last_error"] = null;
  readonly #log: Logger;
  readonly #now: () => number;

  constructor(log: Logger, now: () => number) {
    this.#log = log;
    this.#now = now;
  }

  /** A write of `key` failed with `error`. */
  failed(key: string, error: string): void {
    this.writes.failed++;
    this.lastError = { route: key, error, at: new Date(this.#now()).toISOString() };
  }

  /** Counts a delivery's outcome (null: nothing was attempted). */
  outcome(key: string, out: ResidentOutcome | null): void {
    if (!out) return;
    if (out.status === "ok") {
      if (out.action === "edited" || out.action === "adopted") this.writes.edited++;
      else if (out.action === "rotated") this.writes.rotated++;
      else this.writes.sent++;
      return;
    }
    this.failed(key, out.error ?? "unknown");
    this.#log.warn("task card not delivered", { route: key, error: out.error, ...flags(out) });
  }
}

function flags(out: ResidentOutcome): Record<string, boolean> {
  const f: Record<string, boolean> = {};
  for (
    const k of [
      "blocked",
      "stale_delete_failed",
      "old_resident_deleted",
      "indeterminate_send",
      "resident_persist_failed",
    ] as const
  ) if (out[k]) f[k] = true;
  return f;
}
