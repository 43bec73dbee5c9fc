/**
 * One server per workdir: an exclusive lock on `<workdir>/feishu/server.lock`,
 * released by the OS when the process dies (even after `kill -9`).
 * @module
 */

import { join } from "node:path";

/** A held lock; `release()` frees it. */
export interface WorkdirLock {
  path: string;
  release(): void;
}

/**
 * Takes the lock or throws an `Error` saying which process holds it.
 */
export function lockWorkdir(stateDir: string): WorkdirLock {
  Deno.mkdirSync(stateDir, { recursive: true });
  const path = join(stateDir, "server.lock");
  const file = Deno.openSync(path, { read: true, write: true, create: true });
  if (!file.tryLockSync(true)) {
    let holder = "";
    try {
      holder = Deno.readTextFileSync(path).trim();
    } catch {
      holder = "";
    }
    file.close();
    throw new Error(
      `Another feishu-mcp server already runs on this workdir (lock ${path}${
        holder ? `, pid ${holder}` : ""
      })`,
    );
  }
  file.truncateSync(0);
  file.writeSync(new TextEncoder().encode(String(Deno.pid)));
  return {
    path,
    release: () => {
      try {
        file.unlockSync();
      } finally {
        file.close();
      }
    },
  };
}
