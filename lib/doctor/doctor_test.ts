import assert from "node:assert/strict";
import { join } from "node:path";
import type { LaunchOptions } from "../config/mod.ts";
import { ManualClock } from "../core/mod.ts";
import { type JournalSnapshot, openStore } from "../store/mod.ts";
import { gather } from "./_gather.ts";
import { buildReport, renderText } from "./report.ts";
import { checkStorage } from "./_storage.ts";

const launch = (workdir: string): LaunchOptions => ({
  subcommand: "doctor",
  configPath: null,
  configSource: null,
  workdir,
  workdirExplicit: true,
  mcpName: "feishu",
  port: null,
  confined: false,
  json: true,
});

/** Names and digests of every file in a folder, `-shm` (SQLite's shared memory) aside. */
async function files(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const e of Deno.readDir(dir)) {
    if (e.name.endsWith("-shm")) continue;
    const digest = await crypto.subtle.digest("SHA-256", await Deno.readFile(join(dir, e.name)));
    out[e.name] = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  }
  return out;
}

/** Figures as a server writes them: one chat waiting, one dead letter. */
const FIGURES: JournalSnapshot = {
  pending: 2,
  fifo: [{ account: "main", chat: "oc_2", depth: 2, attempts: 1, last_error: "Error: busy" }],
  dead_letter_count: 1,
  dead_letters: [{
    account: "main",
    chat: "oc_1",
    seq: 7,
    attempts: 8,
    error: "Error: handler refused the event",
    admitted_at: "2025-01-10T00:00:00.000Z",
    dead_at: "2025-01-10T00:01:00.000Z",
  }],
  dedupe_keys: 4,
};

Deno.test("gather() reads the journal figures the server wrote, with their age, beside a live store and after it closed, and writes nothing", async () => {
  const workdir = await Deno.makeTempDir();
  const clock = new ManualClock(Date.UTC(2025, 0, 10));
  const store = openStore(workdir, clock);
  const state = join(workdir, "feishu");
  try {
    store.journalFigures.put(FIGURES);
    const before = await files(state);
    clock.advance(3000);
    const live = await gather(launch(workdir), clock.now());
    assert.equal(live.journal.read_mode, "wal_reader");
    assert.equal(live.journal.path, store.path);
    assert.equal(live.journal.snapshot_at, "2025-01-10T00:00:00.000Z");
    assert.equal(live.journal.snapshot_age_ms, 3000);
    assert.deepEqual(live.journal.fifo, FIGURES.fifo);
    assert.equal(live.journal.pending, 2);
    assert.equal(live.journal.dedupe_keys, 4);
    assert.equal(live.journal.dead_letter_count, 1);
    assert.deepEqual(live.journal.dead_letters, FIGURES.dead_letters);
    assert.deepEqual(await files(state), before, "doctor changed a file beside the live store");
  } finally {
    store.close();
  }
  const closedFiles = await files(state);
  const stopped = await gather(launch(workdir), clock.now());
  assert.equal(stopped.journal.read_mode, "snapshot");
  assert.equal(stopped.journal.pending, 2);
  assert.equal(stopped.journal.dead_letters.length, 1);
  assert.deepEqual(await files(state), closedFiles, "doctor changed a file of the stopped store");
  assert.ok(!Object.keys(await files(state)).some((n) => n.endsWith("-wal")));

  const report = buildReport(stopped, clock.now());
  assert.equal(report.healthy, false);
  assert.ok(report.attention.includes("1 dead letter in the journal"));
  assert.deepEqual(report.journal.dead_letter_reasons, [
    { error: "Error: handler refused the event", count: 1 },
  ]);
  const text = renderText(report);
  assert.match(
    text,
    /Journal \(from the server's last snapshot, 2025-01-10T00:00:00\.000Z \(3 s ago\)\)/,
  );
  assert.match(text, /pending: 2 · dead letters: 1 · dedupe keys: 4/);
  assert.match(text, /main oc_2: 2 waiting · 1 failed attempts, last: Error: busy/);
  await Deno.remove(workdir, { recursive: true });
});

Deno.test("gather() says when no server has written journal figures yet", async () => {
  const workdir = await Deno.makeTempDir();
  openStore(workdir, new ManualClock(0)).close();
  const g = await gather(launch(workdir), 0);
  assert.equal(g.journal.snapshot_at, null);
  assert.equal(g.journal.snapshot_age_ms, null);
  assert.deepEqual([g.journal.pending, g.journal.dead_letter_count, g.journal.dedupe_keys], [
    0,
    0,
    0,
  ]);
  const report = buildReport(g, 0);
  assert.ok(report.attention.includes("journal: no server has written its figures yet"));
  assert.match(renderText(report), /Journal \(no server has written its figures yet\)/);
  await Deno.remove(workdir, { recursive: true });
});

Deno.test("doctor names a store it could not read for lack of disk space as storage disk_full and asks for attention", async () => {
  const workdir = await Deno.makeTempDir();
  try {
    const g = await gather(launch(workdir), 0);
    assert.deepEqual(g.storage, { state: "ok", error: null });
    const full = { ...g, store: { ...g.store, present: true, error: "database or disk is full" } };
    const report = buildReport({ ...full, storage: checkStorage([full.store.error]) }, 0);
    assert.deepEqual(report.storage, {
      state: "disk_full",
      error: "disk full: database or disk is full",
    });
    assert.ok(report.attention.includes("storage: disk full: database or disk is full"));
    assert.match(renderText(report), /Storage: disk_full/);
  } finally {
    await Deno.remove(workdir, { recursive: true });
  }
});
