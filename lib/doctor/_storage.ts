/**
 * Whether the state files could be used, named the way the status resource
 * names it (`disk_full`, `read_only`): the errors doctor met reading them,
 * classified. Doctor writes nothing and runs without write permission, so a
 * disk that is full, or read-only, while reads still work is not visible
 * here: the running server's status (`storage`) and its log
 * (`disk full: …`, `read only: …`) show those.
 * @module
 */

import { storageErrorText, type StorageFault, storageFault } from "../core/mod.ts";

/** The storage as doctor shows it. */
export interface StorageSection {
  state: "ok" | StorageFault;
  /** The error that named the fault, null when ok. */
  error: string | null;
}

/**
 * The first storage fault among the errors met, or ok.
 *
 * @example
 * ```ts
 * import { checkStorage } from "./_storage.ts";
 * const s = checkStorage([null, "database or disk is full"]);
 * if (s.state !== "disk_full" || s.error !== "disk full: database or disk is full") throw new Error();
 * if (checkStorage(["file is not a database"]).state !== "ok") throw new Error();
 * ```
 */
export function checkStorage(errors: readonly (string | null)[]): StorageSection {
  for (const text of errors) {
    if (text === null) continue;
    const fault = storageFault(new Error(text));
    if (fault) return { state: fault, error: storageErrorText(new Error(text)) };
  }
  return { state: "ok", error: null };
}
