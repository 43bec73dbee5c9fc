/**
 * The emulator's world on disk, beside the bridge's state in the sandbox's
 * workdir: `emulator/world.json` (chats, messages, reactions, card state) and
 * `emulator/uploads/<key>` (the bytes of images and files). Loaded at start,
 * saved shortly after every change and at stop: a later run shows the earlier
 * conversations, and the bridge's history matches the page.
 *
 * Every run also gets its own id namespace (`om_emu_<run>_0001`), later than
 * any before it, so no id the emulator gives out (message, event, file key,
 * card token) repeats one the bridge already stored, even when the last save
 * was lost to a crash, the file was deleted, or the workdir predates saving.
 * @module
 */

import { join } from "node:path";
import { restoreWorld, snapshotWorld } from "../emulator/mod.ts";
import type { Emulator, EmulatorOptions } from "../emulator/mod.ts";

/** The saved file's name inside the emulator folder. */
export const WORLD_FILE = "world.json";
const FORMAT = "feishu-mcp sandbox world";
/** Keys that are safe as file names (the emulator's own are). */
const SAFE_KEY = /^[A-Za-z0-9_.-]{1,200}$/;
/** Changes within this many ms are saved together. */
const SAVE_DELAY_MS = 250;

/** What {@linkcode loadWorld} found. */
export interface LoadedWorld {
  /** The saved world, or undefined for a new one. */
  world?: EmulatorOptions["world"];
  /** This run's id namespace token (base-36 seconds, above the last run's). */
  run: string;
  /** One line for the console: what was restored, or why the world is new. */
  note: string;
}

/**
 * The run token for `nowMs`: base-36 seconds, and above `previous` (the last
 * run's) whatever the clock says.
 *
 * @example
 * ```ts
 * import { runToken } from "./world_file.ts";
 * const a = runToken(undefined, 1_800_000_000_000);
 * const b = runToken(a, 1_800_000_000_000); // the same second, or a clock set back
 * if (a !== "tro8w0" || parseInt(b, 36) !== parseInt(a, 36) + 1) throw new Error(`${a} ${b}`);
 * ```
 */
export function runToken(previous: string | undefined, nowMs: number): string {
  const last = previous && /^[0-9a-z]{1,12}$/.test(previous) ? parseInt(previous, 36) : 0;
  return Math.max(Math.floor(nowMs / 1000), last + 1).toString(36);
}

/** Reads `dir/world.json`; a damaged file is set aside (`.unreadable-<run>`) and a new world begins. */
export async function loadWorld(dir: string, nowMs = Date.now()): Promise<LoadedWorld> {
  const path = join(dir, WORLD_FILE);
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
    return { run: runToken(undefined, nowMs), note: "A new emulator world begins." };
  }
  let saved: { format?: unknown; run?: unknown; world?: unknown } = {};
  try {
    saved = JSON.parse(text);
    if (saved?.format !== FORMAT) throw new Error(`Expected format '${FORMAT}'`);
    const world = restoreWorld(saved.world, (key) => {
      if (!SAFE_KEY.test(key)) return undefined;
      try {
        return Deno.readFileSync(join(dir, "uploads", key));
      } catch {
        return undefined;
      }
    });
    const run = runToken(typeof saved.run === "string" ? saved.run : undefined, nowMs);
    const count = [...world.messages.values()].filter((m) => !m.upperMessageId).length;
    return { world, run, note: `The emulator world of earlier runs is back (${count} messages).` };
  } catch (err) {
    const run = runToken(typeof saved?.run === "string" ? saved.run : undefined, nowMs);
    const aside = `${path}.unreadable-${run}`;
    await Deno.rename(path, aside);
    return {
      run,
      note: `The saved emulator world could not be read (${
        (err as Error).message
      }); it was moved to ${aside} and a new world begins.`,
    };
  }
}

/**
 * Saves the emulator's world to `dir` now (with this run's token), shortly
 * after every change, and once more on `close()` (call it when the emulator
 * stopped changing). A failed save is reported through `onError` and tried
 * again at the next change.
 */
export async function keepWorld(
  emu: Emulator,
  dir: string,
  run: string,
  onError: (err: Error) => void,
): Promise<{ close(): Promise<void> }> {
  const written = new Set<string>();
  for (const key of emu.world.uploads.keys()) written.add(key); // loaded from disk
  let timer: ReturnType<typeof setTimeout> | undefined;
  let chain = Promise.resolve();
  const save = async () => {
    // The bytes first, so world.json never names an upload that is not on disk.
    for (const [key, upload] of emu.world.uploads) {
      if (written.has(key) || !SAFE_KEY.test(key)) continue;
      await Deno.mkdir(join(dir, "uploads"), { recursive: true });
      await atomicWrite(join(dir, "uploads", key), upload.bytes);
      written.add(key);
    }
    const file = { format: FORMAT, run, saved_at: new Date().toISOString() };
    const body = JSON.stringify({ ...file, world: snapshotWorld(emu.world) });
    await atomicWrite(join(dir, WORLD_FILE), new TextEncoder().encode(body));
  };
  const queue = () => {
    chain = chain.then(save).catch((err) => onError(err as Error));
    return chain;
  };
  const off = emu.changes.subscribe((change) => {
    if (change.kind === "request.logged" || change.kind.startsWith("event.")) return;
    if (change.kind === "ws.session" || change.kind === "error.recorded") return;
    timer ??= setTimeout(() => {
      timer = undefined;
      void queue();
    }, SAVE_DELAY_MS);
  });
  // The run token is on disk before the bridge is given the first id of this run.
  await queue();
  return {
    async close() {
      off();
      clearTimeout(timer);
      timer = undefined;
      await queue();
    },
  };
}

async function atomicWrite(path: string, bytes: Uint8Array): Promise<void> {
  const tmp = `${path}.tmp-${Deno.pid}`;
  await Deno.writeFile(tmp, bytes);
  await Deno.rename(tmp, path);
}
