/**
 * Reading a workdir's SQLite files from another process without writing a
 * byte of them: `doctor` runs beside the server (which holds the workdir
 * lock, never taken here) or after it stopped.
 *
 * A plain read-only SQLite connection to a WAL database creates the `-wal`
 * and `-shm` files when they are absent, that is after a clean shutdown,
 * and Deno only honours SQLite's `immutable` URI with every permission
 * granted. So: while a `-wal` and `-shm` exist (the server runs, or died
 * without checkpointing), open the file read-only and join the WAL protocol
 * like any reader (the newest commits are in the WAL; the only bytes a
 * reader touches are its read mark in the `-shm` index, SQLite's shared
 * memory). When they do not, nobody writes and everything is in the main
 * file: read its bytes and query a private in-memory copy.
 * @module
 */

import { existsSync, readFileSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";

/** How {@link openSqliteReadOnly} opened the file. */
export type ReadOnlyMode = "wal_reader" | "snapshot";

/** Offsets of the file format's write and read versions (2 = WAL) in the header. */
const WRITE_VERSION = 18;
const READ_VERSION = 19;

/**
 * Opens `path` read-only; throws `Deno.errors.NotFound` when it is absent
 * (it is never created).
 */
export function openSqliteReadOnly(path: string): { db: DatabaseSync; mode: ReadOnlyMode } {
  if (!existsSync(path)) throw new Deno.errors.NotFound(`${path} does not exist`);
  if (existsSync(`${path}-wal`) && existsSync(`${path}-shm`)) {
    return { db: new DatabaseSync(path, { readOnly: true, timeout: 5000 }), mode: "wal_reader" };
  }
  const bytes = readFileSync(path);
  // An in-memory database has no WAL: mark the copy as a rollback-journal file.
  if (bytes.length > READ_VERSION && bytes[WRITE_VERSION] === 2) {
    bytes[WRITE_VERSION] = 1;
    bytes[READ_VERSION] = 1;
  }
  const db = new DatabaseSync(":memory:");
  try {
    db.deserialize(bytes);
  } catch (err) {
    db.close();
    throw err;
  }
  return { db, mode: "snapshot" };
}
