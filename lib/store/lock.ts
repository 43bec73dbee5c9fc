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
  const lock = lockFile(path);
  if ("holder" in lock) {
    throw new Error(
      `Another feishu-mcp server already runs on this workdir (lock ${path}${
        lock.holder ? `, pid ${lock.holder}` : ""
      })`,
    );
  }
  lock.note(String(Deno.pid));
  return { path, release: lock.release };
}

/** An exclusive lock on one file, held by this process, whose text says who holds it. */
export interface FileLock {
  /** Replaces the file's text (who holds it, for the message a later taker gets). */
  note(text: string): void;
  /** Frees the lock (once; later calls do nothing). */
  release(): void;
}

/**
 * Takes an exclusive lock on `path` (created if missing), or says who holds
 * it: the file's text, "" when unreadable. The OS drops the lock when the
 * process dies, so a crash never leaves it taken.
 */
export function lockFile(path: string): FileLock | { holder: string } {
  const file = Deno.openSync(path, { read: true, write: true, create: true });
  if (!file.tryLockSync(true)) {
    file.close();
    let holder = "";
    try {
      holder = Deno.readTextFileSync(path).trim();
    } catch {
      // unreadable: nothing to say about the holder
    }
    return { holder };
  }
  let held = true;
  return {
    note(text) {
      file.truncateSync(0);
      file.seekSync(0, Deno.SeekMode.Start);
      file.writeSync(new TextEncoder().encode(text));
    },
    release() {
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

/** True when some process holds the lock at `path` (a missing file: nobody does). */
export function isLocked(path: string): boolean {
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(path, { read: true, write: true });
  } catch {
    return false;
  }
  try {
    const free = file.tryLockSync(true);
    if (free) file.unlockSync();
    return !free;
  } finally {
    file.close();
  }
}
