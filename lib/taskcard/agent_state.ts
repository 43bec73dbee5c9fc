/**
 * What the Task Cards read of the agent's workdir besides its events log:
 * the runtime state in `.status.json` (bounded read) and whether a file is
 * there.
 * @module
 */

import { join } from "node:path";
import { readAt, withFile } from "./_file.ts";

const STATE_BYTES = 64 << 10;

/** The agent's runtime state from `.status.json`, or null. */
export async function agentState(workdir: string): Promise<string | null> {
  const read = await withFile(join(workdir, ".status.json"), async (file) => {
    const bytes = await readAt(file, 0, STATE_BYTES);
    const data = JSON.parse(new TextDecoder().decode(bytes));
    const state = data?.runtime?.state ?? data?.state;
    return typeof state === "string" ? state : null;
  }).catch(() => null);
  return read ?? null;
}

/** Whether `path` is a file. */
export async function isFile(path: string): Promise<boolean> {
  return await Deno.stat(path).then((s) => s.isFile, () => false);
}
