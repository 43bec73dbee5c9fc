/**
 * One server per workdir: an exclusive lock on `<workdir>/feishu/server.lock`,
 * released by the OS when the process dies (even after `kill -9`).
 * @module
 */

import { join } from "node:path";

/** A held lock; `release()` frees it (once; later calls do nothing). */
export interface WorkdirLock {
  path: string;
  release(): void;
}

/** Options of {@link acquireWorkdirLock}. */
export interface AcquireOptions {
  /** How long to wait for a holder that is on its way out (ms). */
  waitMs: number;
  /** Told once when the lock is busy and the wait begins. */
  onWait?: (holder: string) => void;
}

/**
 * Takes the lock, waiting up to `waitMs` for the current holder to let go:
 * a client that probes the server in a throwaway process (as the MCP SDK v2
 * does on stdio) starts the real one while the probe is still exiting. Throws
 * the holder's `Error` when the wait runs out.
 */
export async function acquireWorkdirLock(
  stateDir: string,
  options: AcquireOptions,
): Promise<WorkdirLock> {
  const deadline = Date.now() + options.waitMs;
  let told = false;
  while (true) {
    try {
      return lockWorkdir(stateDir);
    } catch (err) {
      if (Date.now() >= deadline) throw err;
      if (!told) options.onWait?.((err as Error).message);
      told = true;
      await new Promise((r) => setTimeout(r, 25));
    }
  }
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
  let held = true;
  return {
    path,
    release: () => {
      if (!held) return;
      held = false;
      try {
        file.unlockSync();
      } finally {
        file.close();
      }
    },
  };
}
