/**
 * Worker side of `search`: its own read-only connection, scanning incoming
 * records newest first and testing the pattern, so a slow or pathological
 * regex never blocks the main event loop (stdio, WS ACKs).
 *
 * Started by `search.ts` through its `JobRunner` of kind `"search"`; serves only
 * inside such a worker (see `lib/core/worker.ts`).
 * @module
 */

import { DatabaseSync } from "node:sqlite";
import { serveWorker } from "../core/mod.ts";
import type { SearchJob, SearchReply } from "./search.ts";

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
    // The scan reads only what the match needs; the record JSON (large: it holds
    // the raw envelope) is fetched for the returned matches alone.
    const sql = `SELECT seq, from_open_id, search_text FROM records
      WHERE account = ? AND direction = 'incoming' AND hidden = 0${
      job.chatId ? " AND chat_id = ?" : ""
    }
      ORDER BY create_time DESC, seq DESC`;
    const stmt = db.prepare(sql);
    const rows = job.chatId ? stmt.iterate(job.account, job.chatId) : stmt.iterate(job.account);
    const recordOf = db.prepare("SELECT record FROM records WHERE seq = ?");
    let total = 0;
    for (const row of rows) {
      const openId = row.from_open_id === null ? "" : String(row.from_open_id);
      const haystack = `${String(row.search_text)} ${names.get(openId) ?? ""}`;
      if (!re.test(haystack)) continue;
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

serveWorker("search", serveSearchWorker);
