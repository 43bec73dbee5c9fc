/**
 * Control signals: empty or one-line files in the agent directory that the
 * agent's host picks up (restart, sleep, context wipe).
 * @module
 */

import { join } from "node:path";
import { writeFileAtomic } from "../lib/core/mod.ts";
import { isDir } from "./read.ts";

/** A signal the commands can raise. */
export type Signal = "refresh" | "sleep" | "clear";

/** What raising a signal did. */
export interface SignalResult {
  status: "sent" | "pending" | "failed" | "agent_dir_missing";
  error?: string;
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Writes `.refresh` (empty; a stale `.refresh.taken` is removed first and an
 * existing `.refresh` means `pending`), `.sleep` (empty) or `.clear`
 * (the source name and a newline).
 */
export async function sendSignal(
  workdir: string,
  signal: Signal,
  source: string,
): Promise<SignalResult> {
  if (!workdir || !await isDir(workdir)) return { status: "agent_dir_missing" };
  try {
    if (signal === "refresh") {
      await Deno.remove(join(workdir, ".refresh.taken")).catch(() => {});
      if (await exists(join(workdir, ".refresh"))) return { status: "pending" };
    }
    const content = signal === "clear" ? `${source}\n` : "";
    await writeFileAtomic(join(workdir, `.${signal}`), content);
    return { status: "sent" };
  } catch (err) {
    return { status: "failed", error: err instanceof Error ? err.message : String(err) };
  }
}
