/**
 * Send intents: a `send` / `reply` written down before its first chunk goes
 * out (its planned wire bodies and their `uuid`s, what it is a message of),
 * each delivered chunk added as Feishu answers it, and its state once it is
 * over. A crash mid-send leaves an `open` intent that start-up finishes or
 * records (`lib/outbound/recover.ts`); a repeat of the same send finds it by
 * `identity` and reuses its uuids, so Feishu answers the chunks it already
 * has instead of posting them again. The plan is opaque here (the outbound
 * side reads it back).
 *
 * States: `open` (being sent, or cut off by a crash), `done` (complete and
 * answered to the agent: deleted at once), `incomplete` (answered as partial,
 * unknown or failed), `recovered` (settled at start-up; the agent never had
 * its answer). Intents older than a day are pruned at start-up.
 * @module
 */

import type { DatabaseSync } from "node:sqlite";

/** Where an intent stands. */
export type IntentState = "open" | "done" | "incomplete" | "recovered";

/** One chunk Feishu answered: what the sent record needs of it. */
export interface DeliveredChunk {
  /** 0-based chunk index. */
  index: number;
  message_id: string;
  chat_id: string;
  thread_id: string | null;
  root_id: string | null;
  parent_id: string | null;
  /** Feishu's create time, ms. */
  create_time: number | null;
}

/** One planned chunk as it goes on the wire. */
export interface IntentBody {
  msg_type: string;
  content: string;
}

/** A new intent, as written before the first chunk. */
export interface NewIntent {
  account: string;
  id: string;
  /** Who and what it is a message of (target + content hash): how a repeat finds it. */
  identity: string;
  /** What the sent record is built from (the outbound side's shape). */
  plan: Record<string, unknown>;
  bodies: readonly IntentBody[];
  /** One per body, same order. */
  uuids: readonly string[];
}

/** A stored intent. */
export interface SendIntent extends NewIntent {
  bodies: IntentBody[];
  uuids: string[];
  /** Chunks answered so far, by index. */
  delivered: DeliveredChunk[];
  state: IntentState;
  createdAt: number;
  updatedAt: number;
}

const COLUMNS =
  "account, id, identity, plan, bodies, uuids, delivered, state, created_at, updated_at";

function toIntent(row: Record<string, unknown>): SendIntent {
  const state = String(row.state);
  return {
    account: String(row.account),
    id: String(row.id),
    identity: String(row.identity),
    plan: JSON.parse(String(row.plan)),
    bodies: JSON.parse(String(row.bodies)),
    uuids: JSON.parse(String(row.uuids)),
    delivered: (JSON.parse(String(row.delivered)) as (DeliveredChunk | null)[])
      .filter((c): c is DeliveredChunk => c !== null),
    state:
      (["open", "done", "incomplete", "recovered"].includes(state) ? state : "open") as IntentState,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/**
 * Data access for send intents.
 *
 * @example A send's life: open, one chunk answered, done
 * ```ts
 * import { DatabaseSync } from "node:sqlite";
 * import { MIGRATIONS } from "./migrations.ts";
 * import { IntentStore } from "./intents.ts";
 * const db = new DatabaseSync(":memory:");
 * for (const m of MIGRATIONS) db.exec(m.sql);
 * const intents = new IntentStore(db, () => 1000);
 * intents.open({ account: "main", id: "i1", identity: "h", plan: {},
 *   bodies: [{ msg_type: "text", content: "{}" }], uuids: ["u1"] });
 * intents.delivered("main", "i1", { index: 0, message_id: "om_1", chat_id: "oc_1",
 *   thread_id: null, root_id: null, parent_id: null, create_time: 1000 });
 * if (intents.reusable("main", "h", 0)?.delivered[0]?.message_id !== "om_1") throw new Error();
 * intents.settle("main", "i1", "done");
 * if (intents.reusable("main", "h", 0) !== null) throw new Error();
 * ```
 */
export class IntentStore {
  #db: DatabaseSync;
  #now: () => number;

  constructor(db: DatabaseSync, now: () => number) {
    this.#db = db;
    this.#now = now;
  }

  /** Writes a new intent, `open`, before its first chunk. */
  open(intent: NewIntent): void {
    const now = this.#now();
    this.#db.prepare(
      `INSERT INTO send_intents (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, '[]', 'open', ?, ?)`,
    ).run(
      intent.account,
      intent.id,
      intent.identity,
      JSON.stringify(intent.plan),
      JSON.stringify(intent.bodies),
      JSON.stringify(intent.uuids),
      now,
      now,
    );
  }

  /** Adds (or replaces) one answered chunk at its index. */
  delivered(account: string, id: string, chunk: DeliveredChunk): void {
    if (!Number.isInteger(chunk.index) || chunk.index < 0) {
      throw new RangeError(`Expected a chunk index of at least 0 but found ${chunk.index}`);
    }
    // The path is built here: a bound number reaches SQLite as a real (`$[1.0]` is no path).
    this.#db.prepare(
      `UPDATE send_intents SET delivered = json_set(delivered, ?, json(?)),
         updated_at = ? WHERE account = ? AND id = ?`,
    ).run(`$[${chunk.index}]`, JSON.stringify(chunk), this.#now(), account, id);
  }

  /**
   * Sets the state (`open` again when a repeat takes the intent over). A
   * `done` intent is deleted: nothing reads it again (no repeat reuses it, no
   * start-up recovers it), and every send would otherwise leave its bodies.
   */
  settle(account: string, id: string, state: IntentState): void {
    if (state === "done") {
      this.#db.prepare("DELETE FROM send_intents WHERE account = ? AND id = ?").run(account, id);
      return;
    }
    this.#db.prepare(
      "UPDATE send_intents SET state = ?, updated_at = ? WHERE account = ? AND id = ?",
    ).run(state, this.#now(), account, id);
  }

  get(account: string, id: string): SendIntent | null {
    const row = this.#db.prepare(
      `SELECT ${COLUMNS} FROM send_intents WHERE account = ? AND id = ?`,
    ).get(account, id);
    return row ? toIntent(row) : null;
  }

  /**
   * The newest intent with this identity created at or after `since` that a
   * repeat may take over: any but a `done` one (a complete send the agent was
   * answered for is repeated on purpose).
   */
  reusable(account: string, identity: string, since: number): SendIntent | null {
    const row = this.#db.prepare(
      `SELECT ${COLUMNS} FROM send_intents WHERE account = ? AND identity = ? AND created_at >= ?
         AND state != 'done' ORDER BY created_at DESC LIMIT 1`,
    ).get(account, identity, since);
    return row ? toIntent(row) : null;
  }

  /** Every `open` intent of an account, oldest first. */
  unfinished(account: string): SendIntent[] {
    return this.#db.prepare(
      `SELECT ${COLUMNS} FROM send_intents WHERE account = ? AND state = 'open'
         ORDER BY created_at`,
    ).all(account).map(toIntent);
  }

  /**
   * Deletes intents created before `before`, whatever their state (an `open`
   * one that old was recorded by start-up already, or belongs to an account
   * no longer configured); returns how many.
   */
  prune(before: number): number {
    const r = this.#db.prepare("DELETE FROM send_intents WHERE created_at < ?").run(before);
    return Number(r.changes);
  }
}
