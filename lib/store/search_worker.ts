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
  const scope = `account = ? AND direction = 'incoming' AND hidden = 0${
    job.chatId ? " AND chat_id = ?" : ""
  }`;
  const scopeArgs = job.chatId ? [job.account, job.chatId] : [job.account];
  const order = "ORDER BY create_time DESC, seq DESC";
  const pieces = requiredPieces(job.pattern);
  if (pieces.length === 0) {
    return db.prepare(`SELECT seq, from_open_id, search_text FROM records WHERE ${scope} ${order}`)
      .iterate(...scopeArgs);
  }
  const senders = [...names].filter(([, name]) => nameMayHold(name, pieces)).map(([id]) => id);
  return db.prepare(
    // One IN over a union (not an OR of two), so SQLite reads the candidates
    // by rowid instead of walking every record in time order.
    `SELECT seq, from_open_id, search_text FROM records WHERE seq IN (
       SELECT rowid FROM records_fts WHERE records_fts MATCH ?
       UNION SELECT seq FROM records
         WHERE account = ? AND from_open_id IN (SELECT value FROM json_each(?)))
       AND ${scope}
     ${order}`,
  ).iterate(ftsQuery(pieces), job.account, JSON.stringify(senders), ...scopeArgs);
}

serveWorker("search", serveSearchWorker);
