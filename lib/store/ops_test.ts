import assert from "node:assert/strict";
import { join } from "node:path";
import { ManualClock } from "../core/mod.ts";
import {
  openSqliteReadOnly,
  openStore,
  readApiCalls,
  readHealth,
  readTypingPending,
} from "./mod.ts";

/** Every file below `dir` with its bytes' digest (the workdir as `doctor` must leave it). */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const e of Deno.readDir(dir)) {
    const bytes = await Deno.readFile(join(dir, e.name));
    const digest = await crypto.subtle.digest("SHA-256", bytes);
    out[e.name] = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  }
  return out;
}

Deno.test("ApiCallStore.increment() adds to one row per account, month and category", async () => {
  const dir = await Deno.makeTempDir();
  const store = openStore(dir, new ManualClock(0));
  try {
    store.apiCalls.increment("main", "2025-01", "send");
    store.apiCalls.increment("main", "2025-01", "send");
    store.apiCalls.increment("main", "2025-01", "probe", 3);
    store.apiCalls.increment("other", "2025-01", "send");
    store.apiCalls.increment("main", "2025-02", "send");
    assert.deepEqual(store.apiCalls.month("2025-01"), [
      { account: "main", month: "2025-01", category: "probe", count: 3 },
      { account: "main", month: "2025-01", category: "send", count: 2 },
      { account: "other", month: "2025-01", category: "send", count: 1 },
    ]);
  } finally {
    store.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("HealthStore.put() keeps one snapshot per account, stamped with the store's clock", async () => {
  const dir = await Deno.makeTempDir();
  const clock = new ManualClock(1000);
  const store = openStore(dir, clock);
  try {
    store.health.put({
      account: "main",
      state: "connecting",
      since: 1,
      lastEventAt: null,
      lastError: null,
    });
    clock.advance(500);
    store.health.put({
      account: "main",
      state: "connected",
      since: 2,
      lastEventAt: 3,
      lastError: "x",
    });
    assert.deepEqual(store.health.all(), [
      {
        account: "main",
        state: "connected",
        since: 2,
        lastEventAt: 3,
        lastError: "x",
        updatedAt: 1500,
      },
    ]);
  } finally {
    store.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("openSqliteReadOnly() reads a live store beside its writer and a stopped one, and writes no file", async () => {
  const dir = await Deno.makeTempDir();
  const store = openStore(dir, new ManualClock(0));
  const path = join(dir, "feishu", "store.db");
  try {
    store.apiCalls.increment("main", "2025-01", "send", 2);
    store.typing.put({
      account: "main",
      chatId: "oc_1",
      messageId: "om_1",
      reactionId: "r_1",
      receiveId: null,
      receiveIdType: null,
    });
    const live = openSqliteReadOnly(path);
    assert.equal(live.mode, "wal_reader");
    assert.deepEqual(readApiCalls(live.db, "2025-01").map((r) => r.count), [2]);
    assert.deepEqual(readTypingPending(live.db), [{ account: "main", count: 1 }]);
    // The writer goes on while the reader is open; a new read sees the commit.
    store.apiCalls.increment("main", "2025-01", "send");
    assert.deepEqual(readApiCalls(live.db, "2025-01").map((r) => r.count), [3]);
    live.db.close();
  } finally {
    store.close();
  }
  const before = await snapshot(join(dir, "feishu"));
  assert.deepEqual(
    Object.keys(before).sort(),
    ["store.db"],
    "a clean close leaves no -wal or -shm",
  );
  const stopped = openSqliteReadOnly(path);
  assert.equal(stopped.mode, "snapshot");
  assert.deepEqual(readApiCalls(stopped.db, "2025-01").map((r) => r.count), [3]);
  assert.deepEqual(readHealth(stopped.db), []);
  stopped.db.close();
  assert.deepEqual(await snapshot(join(dir, "feishu")), before);
  assert.throws(() => openSqliteReadOnly(join(dir, "absent.db")), Deno.errors.NotFound);
  await Deno.remove(dir, { recursive: true });
});
