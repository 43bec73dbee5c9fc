/**
 * Child process of the full-disk journal test (a Deno panic would take the
 * test runner down with it): opens a journal in `--dir` (a small tmpfs),
 * starts its workers, admits a burst over several chats, fills the disk with
 * a filler file while admitting more (most of those admits must fail with a
 * disk-full error; a few KiB freed now and then let some through), keeps the workers running on the full disk, frees the space and
 * admits again. Prints one JSON summary line and exits 0 — unless the
 * process dies first.
 * @module
 */

import { parseArgs } from "node:util";
import { createLogger, storageFault, systemClock } from "../../core/mod.ts";
import { openJournal } from "../mod.ts";

const args = parseArgs({ args: Deno.args, options: { dir: { type: "string" } } });
const dir = args.values.dir!;
const journal = await openJournal({
  path: `${dir}/queue.kv`,
  clock: systemClock,
  log: createLogger({ sink: () => {} }),
  backoff: { baseMs: 10, maxMs: 50 },
});
// A set: on a full disk deleting a processed entry can fail, and the job runs again.
const processed = new Set<string>();
journal.start((job) => void processed.add(String((job.payload as { id: string }).id)));

let n = 0;
const admitted: string[] = [];
const failures: Record<string, number> = {};
async function admitSome(count: number): Promise<void> {
  for (let i = 0; i < count; i++, n++) {
    const id = `e${n}`;
    try {
      await journal.admit({
        account: "main",
        chatKey: `oc_${n % 4}`,
        dedupeKeys: [id],
        payload: { id, pad: "x".repeat(2000) },
      });
      admitted.push(id);
    } catch (err) {
      const kind = storageFault(err) ?? (err as Error).message;
      failures[kind] = (failures[kind] ?? 0) + 1;
    }
  }
}

const filler = `${dir}/filler`;
async function fill(): Promise<void> {
  const file = await Deno.open(filler, { write: true, create: true, append: true });
  try {
    for (;;) await file.write(new Uint8Array(4096));
  } catch {
    // ENOSPC: the disk is full.
  } finally {
    file.close();
  }
}

/** Frees a few KiB of the filler, so that the next commits may succeed until the disk fills again. */
async function nibble(): Promise<void> {
  const { size } = await Deno.stat(filler);
  await Deno.truncate(filler, Math.max(0, size - 16384));
}

await admitSome(40);
await fill();
// A disk that is nearly full: some commits go through, most fail.
for (let i = 0; i < 20; i++) {
  await nibble();
  await admitSome(4);
}
// The workers keep reading and deleting on the full disk for a while.
for (let i = 0; i < 50; i++) await new Promise((r) => setTimeout(r, 10));
await admitSome(10);
await Deno.remove(filler);
await admitSome(20);

await journal.idle();
const lost = admitted.filter((id) => !processed.has(id));
const phantom = [...processed].filter((id) => !admitted.includes(id));
Deno.stdout.writeSync(new TextEncoder().encode(
  JSON.stringify({
    admitted: admitted.length,
    processed: processed.size,
    lost,
    phantom,
    failures,
  }) +
    "\n",
));
await journal.close();
