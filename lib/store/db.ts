/**
 * Opening `store.db`: WAL mode, a marker that the file is ours, numbered
 * migrations. A file that is not SQLite, or a SQLite file of another program,
 * is refused with a clear error and left untouched.
 * @module
 */

import { DatabaseSync, type StatementSync } from "node:sqlite";
import { BridgeError } from "../core/mod.ts";
import { MIGRATIONS } from "./migrations.ts";

/** The marker stored in `meta.app`. */
export const STORE_APP = "feishu-mcp";

/** Options of {@link openDatabase}. */
export interface OpenOptions {
  readOnly?: boolean;
}

/**
 * Opens (creating if absent) and migrates the database at `path`.
 * Throws a `BridgeError` (`UNKNOWN`) naming the file when it is corrupt,
 * foreign, or from a newer version of this program.
 */
export function openDatabase(path: string, options: OpenOptions = {}): DatabaseSync {
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(path, { readOnly: options.readOnly ?? false, timeout: 5000 });
  } catch (err) {
    throw storeError(path, "cannot be opened", err);
  }
  try {
    if (!options.readOnly) {
      db.exec("PRAGMA journal_mode = WAL");
      db.exec("PRAGMA synchronous = NORMAL");
    }
    db.exec("PRAGMA foreign_keys = ON");
    checkOwnership(db, path);
    if (!options.readOnly) migrate(db, path);
    cacheStatements(db);
    return db;
  } catch (err) {
    db.close();
    if (err instanceof BridgeError) throw err;
    throw storeError(path, "is not a usable SQLite database", err);
  }
}

/**
 * Makes `db.prepare` reuse statements. The store's SQL is a small fixed set,
 * and preparing it anew on every call was the largest single cost of an
 * inbound message (`bench/inbound_bench.ts`). Safe because the store runs
 * each statement to completion synchronously (no `iterate()` on this
 * connection; the search worker has its own).
 */
function cacheStatements(db: DatabaseSync, max = 256): void {
  const prepare = db.prepare.bind(db);
  const cache = new Map<string, StatementSync>();
  db.prepare = (sql: string) => {
    let stmt = cache.get(sql);
    if (!stmt) {
      if (cache.size >= max) cache.clear();
      stmt = prepare(sql);
      cache.set(sql, stmt);
    }
    return stmt;
  };
}

function checkOwnership(db: DatabaseSync, path: string): void {
  // Reading sqlite_master fails on a file that is not SQLite ("file is not a database").
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all()
    .map((r) => String(r.name));
  if (tables.length === 0) return; // brand new file
  if (!tables.includes("meta")) {
    throw storeError(path, `belongs to another program (tables: ${tables.slice(0, 5).join(", ")})`);
  }
  const app = db.prepare("SELECT value FROM meta WHERE key = 'app'").get();
  if (!app || app.value !== STORE_APP) {
    throw storeError(
      path,
      `belongs to another program (meta.app = ${String(app?.value ?? "missing")})`,
    );
  }
}

function migrate(db: DatabaseSync, path: string): void {
  db.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
  db.prepare("INSERT OR IGNORE INTO meta (key, value) VALUES ('app', ?)").run(STORE_APP);
  const row = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get();
  const current = row ? Number(row.value) : 0;
  const latest = MIGRATIONS.at(-1)?.version ?? 0;
  if (current > latest) {
    throw storeError(
      path,
      `has schema version ${current}, newer than this program knows (${latest})`,
    );
  }
  for (const m of MIGRATIONS) {
    if (m.version <= current) continue;
    try {
      inTransaction(db, () => {
        db.exec(m.sql);
        db.prepare(
          "INSERT INTO meta (key, value) VALUES ('schema_version', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        ).run(String(m.version));
      });
    } catch (err) {
      throw storeError(path, `migration ${m.version} (${m.name}) failed`, err);
    }
  }
}

/**
 * Runs `fn` in one transaction (`begin` opens it) and commits; on any failure
 * rolls back and rethrows the ORIGINAL error. SQLite rolls a transaction back
 * by itself after some errors (SQLITE_FULL, SQLITE_IOERR, an `OR ROLLBACK`
 * conflict), and our ROLLBACK then fails with "cannot rollback - no
 * transaction is active": that second error must not hide the first.
 *
 * @example
 * ```ts
 * import { DatabaseSync } from "node:sqlite";
 * import { inTransaction } from "./db.ts";
 * const db = new DatabaseSync(":memory:");
 * db.exec("CREATE TABLE t (k TEXT PRIMARY KEY)");
 * db.exec("INSERT INTO t VALUES ('a')");
 * let message = "";
 * try {
 *   inTransaction(db, () => db.exec("INSERT OR ROLLBACK INTO t VALUES ('a')"));
 * } catch (err) {
 *   message = (err as Error).message;
 * }
 * if (!message.includes("UNIQUE")) throw new Error(message);
 * ```
 */
export function inTransaction<T>(
  db: DatabaseSync,
  fn: () => T,
  begin: "BEGIN" | "BEGIN IMMEDIATE" = "BEGIN IMMEDIATE",
): T {
  db.exec(begin);
  try {
    const out = fn();
    db.exec("COMMIT");
    return out;
  } catch (err) {
    try {
      db.exec("ROLLBACK");
    } catch {
      // Already rolled back by SQLite (see above); the original error is the news.
    }
    throw err;
  }
}

function storeError(path: string, what: string, cause?: unknown): BridgeError {
  const detail = cause instanceof Error ? `: ${cause.message}` : "";
  return new BridgeError("UNKNOWN", `Store ${path} ${what}${detail}`, { cause });
}
