/**
 * Names the two storage failures an operator can fix: a full disk and a
 * read-only one. SQLite (store.db, and Deno KV underneath queue.kv) and the
 * file system each spell them their own way; one classifier reads them all,
 * so logs say "disk full: …", and the status and `doctor` say `disk_full`
 * or `read_only` instead of an opaque error. Pure.
 * @module
 */

/** A storage failure with a name. */
export type StorageFault = "disk_full" | "read_only";

const DISK_FULL = [
  /SQLITE_FULL/,
  /database or disk is full/i,
  /ENOSPC/,
  /no space left on device/i,
  /os error 28\b/,
  /disk quota exceeded/i,
];

const READ_ONLY = [
  /SQLITE_READONLY/,
  /attempt to write a readonly database/i,
  /EROFS/,
  /read-only file system/i,
  /os error 30\b/,
  /EACCES/,
  /permission denied/i,
];

/**
 * The storage fault an error (or any error in its `cause` chain) names, or
 * null for anything else. `EACCES` counts as read-only: the callers classify
 * failed writes.
 *
 * @example
 * ```ts
 * import { storageFault } from "./storage.ts";
 * if (storageFault(new TypeError("database or disk is full")) !== "disk_full") throw new Error();
 * if (storageFault(new Error("No space left on device (os error 28)")) !== "disk_full") throw new Error();
 * if (storageFault(new Error("attempt to write a readonly database")) !== "read_only") throw new Error();
 * const wrapped = new Error("intake failed", { cause: Object.assign(new Error("x"), { code: "EROFS" }) });
 * if (storageFault(wrapped) !== "read_only") throw new Error();
 * if (storageFault(new Error("UNIQUE constraint failed")) !== null) throw new Error();
 * ```
 */
export function storageFault(err: unknown): StorageFault | null {
  for (let e = err, depth = 0; e != null && depth < 5; depth++) {
    const text = errorWords(e);
    if (DISK_FULL.some((re) => re.test(text))) return "disk_full";
    if (READ_ONLY.some((re) => re.test(text))) return "read_only";
    e = e instanceof Error ? e.cause : undefined;
  }
  return null;
}

/**
 * An error's text for a log line, prefixed with its storage fault when it
 * has one: `disk full: database or disk is full`.
 *
 * @example
 * ```ts
 * import { storageErrorText } from "./storage.ts";
 * if (storageErrorText(new Error("database or disk is full")) !== "disk full: database or disk is full") throw new Error();
 * if (storageErrorText(new Error("boom")) !== "boom") throw new Error();
 * ```
 */
export function storageErrorText(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const fault = storageFault(err);
  return fault === null ? message : `${fault.replace("_", " ")}: ${message}`;
}

function errorWords(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const code = (e as { code?: unknown }).code;
  const errstr = (e as { errstr?: unknown }).errstr;
  return [e.message, typeof code === "string" ? code : "", typeof errstr === "string" ? errstr : ""]
    .join(" ");
}
