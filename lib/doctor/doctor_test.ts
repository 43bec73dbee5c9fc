import assert from "node:assert/strict";
import { join } from "node:path";
import type { LaunchOptions } from "../config/mod.ts";
import { createLogger, ManualClock } from "../core/mod.ts";
import { journalPath, openJournal } from "../journal/mod.ts";
import { gather } from "./_gather.ts";
import { decodeKey, encodeKeyPrefix } from "./_kv.ts";
import { buildReport } from "./report.ts";

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

/** Names and bytes of every file in a folder, `-shm` (SQLite's shared memory) aside. */
async function files(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const e of Deno.readDir(dir)) {
    if (e.name.endsWith("-shm")) continue;
    out[e.name] = btoa(String.fromCharCode(...await Deno.readFile(join(dir, e.name))));
  }
  return out;
}

const keyCases: [string, unknown[]][] = [
  ["strings", ["journal", "fifo", "main", "oc_1"]],
  ["a NUL inside a string", ["a\u0000b"]],
  ["UTF-8 strings", ["日本", "ü"]],
];
for (const [name, parts] of keyCases) {
  Deno.test(`decodeKey() reads back ${name}`, () => {
    assert.deepEqual(decodeKey(encodeKeyPrefix(parts as string[])), parts);
  });
}

Deno.test("decodeKey() reads the numbers, integers and booleans Deno KV writes", async () => {
  const dir = await Deno.makeTempDir();
  const kv = await Deno.openKv(join(dir, "k.kv"));
  const keys: Deno.KvKey[] = [
    ["n", 0],
    ["n", 17],
    ["n", -2.5],
    ["n", 1_700_000_000_123_456],
    ["i", 5n],
    ["i", -300n],
    ["b", true],
    ["b", false],
    ["u", new Uint8Array([0, 1, 255])],
  ];
  for (const k of keys) await kv.set(k, 1);
  kv.close();
  const { openSqliteReadOnly } = await import("../store/mod.ts");
  const { db } = openSqliteReadOnly(join(dir, "k.kv"));
  const got = db.prepare("SELECT k FROM kv").all().map((r) => decodeKey(r.k as Uint8Array));
  db.close();
  const norm = (k: readonly unknown[]) =>
    JSON.stringify(
      k,
      (_, v) => typeof v === "bigint" ? `${v}n` : v instanceof Uint8Array ? [...v] : v,
    );
  assert.deepEqual(got.map(norm).sort(), keys.map(norm).sort());
  await Deno.remove(dir, { recursive: true });
});

Deno.test("gather() reads the journal's depths, dead letters and dedupe keys beside a live journal and after it closed, and writes nothing", async () => {
  const workdir = await Deno.makeTempDir();
  const clock = new ManualClock(Date.UTC(2025, 0, 10));
  const log = createLogger({ sink: () => {} });
  const path = journalPath(workdir);
  // A handler that always fails, with one attempt allowed: the entry is dead-lettered.
  const first = await openJournal({ path, clock, log, maxAttempts: 1 });
  first.start(() => {
    throw new Error("handler refused the event");
  });
  await first.admit({
    account: "main",
    chatKey: "oc_1",
    dedupeKeys: ["e1", "m1"],
    payload: { n: 1 },
  });
  await first.idle();
  await first.close();
  // Unstarted: what it admits waits.
  const second = await openJournal({ path, clock, log });
  await second.admit({ account: "main", chatKey: "oc_2", dedupeKeys: ["e2"], payload: { n: 2 } });
  await second.admit({ account: "main", chatKey: "oc_2", dedupeKeys: ["e3"], payload: { n: 3 } });
  const state = join(workdir, "feishu");
  const before = await files(state);

  const live = await gather(launch(workdir), clock.now());
  assert.equal(live.journal.read_mode, "wal_reader");
  assert.deepEqual(live.journal.fifo, [
    { account: "main", chat: "oc_2", depth: 2, attempts: 0, last_error: null },
  ]);
  assert.equal(live.journal.pending, 2);
  assert.equal(live.journal.dedupe_keys, 4);
  assert.equal(live.journal.dead_letters.length, 1);
  assert.equal(live.journal.dead_letters[0]!.error, "Error: handler refused the event");
  assert.equal(live.journal.dead_letters[0]!.chat, "oc_1");
  assert.deepEqual(await files(state), before, "doctor changed a file beside the live journal");

  await second.close();
  const closedFiles = await files(state);
  const stopped = await gather(launch(workdir), clock.now());
  assert.equal(stopped.journal.read_mode, "snapshot");
  assert.equal(stopped.journal.pending, 2);
  assert.equal(stopped.journal.dead_letters.length, 1);
  // Expired keys are not counted: past the dedupe lifetime (KV expires on the
  // real clock) nothing is held.
  const later = await gather(launch(workdir), Date.now() + 8 * 24 * 3600_000);
  assert.equal(later.journal.dedupe_keys, 0);
  assert.deepEqual(await files(state), closedFiles, "doctor changed a file of the stopped journal");
  assert.ok(!Object.keys(await files(state)).some((n) => n.endsWith("-wal")));

  const report = buildReport(stopped, clock.now());
  assert.equal(report.healthy, false);
  assert.deepEqual(report.journal.dead_letter_reasons, [
    { error: "Error: handler refused the event", count: 1 },
  ]);
  await Deno.remove(workdir, { recursive: true });
});
