/**
 * The sandbox's workdir: `<repo>/.work/sandbox` unless one is named. It holds
 * the bridge's state (`feishu/`), the sandbox's config, the demo agent's
 * files and the emulator's world (`emulator/`), so a later run continues the
 * same conversations. One sandbox at a time runs on it (a lock the OS drops
 * when the process dies), and a directory that holds another bridge's state
 * (a real agent's workdir) is refused rather than mixed with the emulator's.
 * A bridge state whose emulator world is gone (a workdir of a version that
 * kept no world, or a world file deleted or damaged) is set aside, so the
 * bridge never works on chats and messages the emulator does not know.
 * @module
 */

import { join } from "node:path";
import { isLocked, lockFile } from "../store/mod.ts";

/** Where the sandbox writes its config, beside the bridge's state. */
export const SANDBOX_CONFIG = "sandbox-config.json";
/** The folder of the emulator's world, inside the workdir. */
export const EMULATOR_DIR = "emulator";

/** A workdir this process holds; `describe(url)` tells later sandboxes where it runs. */
export interface ClaimedWorkdir {
  dir: string;
  /** `<dir>/emulator`. */
  emulatorDir: string;
  /** Records the page's URL in the lock file, for the message a second sandbox gets. */
  describe(url: string): void;
  release(): void;
}

/**
 * Takes the workdir for this sandbox. Throws an `Error` to show as it is when
 * the directory holds a bridge state the sandbox did not make, or another
 * sandbox runs on it.
 */
export function claimWorkdir(dir: string): ClaimedWorkdir {
  const exists = (p: string) => {
    try {
      Deno.statSync(join(dir, p));
      return true;
    } catch {
      return false;
    }
  };
  if (exists("feishu") && !exists(SANDBOX_CONFIG)) {
    throw new Error(
      `${dir} holds a bridge's state (feishu/) that no sandbox made: the sandbox would mix its ` +
        "emulator's chats into it. Name a new or empty directory with --workdir " +
        "(the sandbox's own default is <repo>/.work/sandbox).",
    );
  }
  const emulatorDir = join(dir, EMULATOR_DIR);
  Deno.mkdirSync(emulatorDir, { recursive: true });
  const lock = lockFile(join(emulatorDir, "sandbox.lock"));
  if ("holder" in lock) {
    throw new Error(
      `Another sandbox already runs on ${dir}${lock.holder ? ` (${lock.holder})` : ""}: ` +
        "stop it first, or pass another --workdir.",
    );
  }
  const bridgeLock = join(dir, "feishu", "server.lock");
  if (isLocked(bridgeLock)) {
    lock.release();
    throw new Error(
      `A bridge already runs on ${dir} (lock ${bridgeLock}): stop it ` +
        "(or the MCP client that started it) first, or pass another --workdir.",
    );
  }
  lock.note(`pid ${Deno.pid}`);
  return {
    dir,
    emulatorDir,
    describe: (url) => lock.note(`pid ${Deno.pid}, ${url}/`),
    release: lock.release,
  };
}

/**
 * Moves `<dir>/feishu` to `<dir>/feishu.before-<run>` when it exists: the
 * bridge state of an emulator world that is gone. Returns the line to show,
 * or null when there was nothing to move.
 */
export function setAsideBridgeState(dir: string, run: string): string | null {
  const from = join(dir, "feishu");
  const to = `${from}.before-${run}`;
  try {
    Deno.renameSync(from, to);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return null;
    throw err;
  }
  return `The bridge's state from before (its emulator world was not kept) is now in ${to}.`;
}
