/**
 * Worker side of `search`: its own read-only connection, testing the pattern
 * on incoming records newest first (those the trigram index names when the
 * pattern has literal pieces, all of them otherwise), so a slow or
 * pathological regex never blocks the main event loop (stdio, WS ACKs).
 *
 * Started by `search.ts` through its `JobRunner` of kind `"search"`; serves only
 * inside such a worker (see `lib/core/worker.ts`).
 * @module
 */

import { DatabaseSync, type SQLOutputValue } from "node:sqlite";
import { serveWorker } from "../core/mod.ts";
import type { SearchJob, SearchReply } from "./search.ts";
import { ftsQuery, nameMayHold, requiredPieces } from "./search_plan.ts";

const connections = new Map<string, DatabaseSync>();

function connection(path: string): DatabaseSync {
  let db = connections.get(path);
  if (!db) {
    db = new DatabaseSync(path, { readOnly: true, timeout: 5000 });
    connections.set(path, db);
  }
  return db;
}

/**
 * Above this many rows holding a search's pieces, the worker tests every row
 * in time order instead of sorting the candidates first.
 */
const FEW_CANDIDATES = 20_000;

/** The worker global scope, typed narrowly (the default lib types `self` as a window). */
interface SearchScope {
  postMessage(m: SearchReply | { ready: true }): void;
  onmessage: ((ev: MessageEvent<SearchJob>) => void) | null;
}

/** Answers search jobs in the current worker. */
export function serveSearchWorker(): void {
  const scope = globalThis as unknown as SearchScope;
  scope.onmessage = (ev: MessageEvent<SearchJob>) => runJob(ev.data, (r) => scope.postMessage(r));
  scope.postMessage({ ready: true });
}

function runJob(job: SearchJob, post: (reply: SearchReply) => void): void {
  try {
    const db = connection(job.dbPath);
    const names = new Map<string, string>();
    for (
      const r of db.prepare("SELECT open_id, alias, name FROM contacts WHERE account = ?").all(
        job.account,
      )
    ) {
      names.set(String(r.open_id), String(r.name ?? "") || String(r.alias ?? ""));
    }
    const re = new RegExp(job.pattern, job.flags);
    post({ id: job.id, type: "started" });
    const recordOf = db.prepare("SELECT record FROM records WHERE seq = ?");
    let total = 0;
    for (const row of candidates(db, job, names)) {
      const openId = row.from_open_id === null ? "" : String(row.from_open_id);
      const name = names.get(openId) ?? "";
      const text = String(row.search_text);
      if (!re.test(name ? `${text} ${name}` : text)) continue;
      total++;
      if (total > job.cap) continue;
      const record = String(recordOf.get(Number(row.seq))?.record ?? "null");
      post({ id: job.id, type: "match", record });
    }
    post({ id: job.id, type: "done", total });
  } catch (err) {
    post({
      id: job.id,
      type: "error",
      message: err instanceof Error ? err.message : String(err),
    });
  }
}

/**
 * The rows the regex must test, newest first. With pieces every match
 * contains, the trigram index names them (plus every record of a sender whose
 * contact name could hold a piece); otherwise every incoming record. The scan
 * reads only what the match needs; the record JSON (large: it holds the raw
 * envelope) is fetched for the returned matches alone.
 */
function candidates(
  db: DatabaseSync,
  job: SearchJob,
  names: Map<string, string>,
): Iterable<Record<string, SQLOutputValue>> {
  // The records in scope, their columns named through `t` (a table alias and a dot, or "").
  const scopeOf = (t: string) =>
    `${t}account = ? AND ${t}direction = 'incoming' AND ${t}hidden = 0${
      job.chatId ? ` AND ${t}chat_id = ?` : ""
    }`;
  const scope = scopeOf("");
  const scopeArgs = job.chatId ? [job.account, job.chatId] : [job.account];
  const order = "ORDER BY create_time DESC, seq DESC";
  const pieces = requiredPieces(job.pattern);
  if (pieces.length === 0) {
    return db.prepare(`SELECT seq, from_open_id, search_text FROM records WHERE ${scope} ${order}`)
      .iterate(...scopeArgs);
  }
  const senders = JSON.stringify(
    [...names].filter(([, name]) => nameMayHold(name, pieces)).map(([id]) => id),
  );
  const match = ftsQuery(pieces);
  const few = db.prepare(
    `SELECT COUNT(*) AS n FROM (SELECT rowid FROM records_fts WHERE records_fts MATCH ?
       UNION ALL SELECT seq FROM records
         WHERE account = ? AND from_open_id IN (SELECT value FROM json_each(?))
       LIMIT ${FEW_CANDIDATES + 1})`,
  ).get(match, job.account, senders);
  if (Number(few?.n) > FEW_CANDIDATES) {
    // Most rows hold the pieces: sorting them all before the first answer
    // would cost more than testing them in order, as the scan does.
    return db.prepare(`SELECT seq, from_open_id, search_text FROM records WHERE ${scope} ${order}`)
      .iterate(...scopeArgs);
  }
  // The candidates drive the loop (CROSS JOIN keeps SQLite from walking every
  // record in time order and probing the set instead).
  return db.prepare(
    `SELECT r.seq, r.from_open_id, r.search_text FROM (
       SELECT rowid AS seq FROM records_fts WHERE records_fts MATCH ?
       UNION SELECT seq FROM records
         WHERE account = ? AND from_open_id IN (SELECT value FROM json_each(?))) c
     CROSS JOIN records r ON r.seq = c.seq
     WHERE ${scopeOf("r.")} ORDER BY r.create_time DESC, r.seq DESC`,
  ).iterate(match, job.account, senders, ...scopeArgs);
}

serveWorker("search", serveSearchWorker);
