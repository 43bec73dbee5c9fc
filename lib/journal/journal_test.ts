import assert from "node:assert/strict";
import { join } from "node:path";
import { ManualClock } from "../core/mod.ts";
import { deferred, openTestJournal, withTempDir, yieldToEventLoop } from "./testdata/helpers.ts";
import type { Job } from "./mod.ts";
import { DEFAULT_DEDUPE_TTL_MS, MIN_DEDUPE_TTL_MS } from "./open.ts";

const ev = (chatKey: string, id: string, account = "main") => ({
  account,
  chatKey,
  dedupeKeys: [`event:${id}`],
  payload: { id, chatKey },
});

Deno.test("admit() queues a new event and refuses a repeated dedupe key without writing", () =>
  withTempDir(async (dir) => {
    await using j = await openTestJournal(dir);
    assert.equal(await j.admit(ev("oc_1", "e1")), "queued");
    assert.equal(await j.admit({ ...ev("oc_1", "e1"), payload: { other: true } }), "duplicate");
    const s = j.stats();
    assert.deepEqual(s.fifo, [{ account: "main", chatKey: "oc_1", depth: 1 }]);
    assert.equal(s.admitted, 1);
    assert.equal(s.duplicates, 1);
  }));

Deno.test("admit() counts an event as duplicate when any one of its keys was admitted", () =>
  withTempDir(async (dir) => {
    await using j = await openTestJournal(dir);
    const first = { ...ev("oc_1", "e1"), dedupeKeys: ["event:e1", "message:om_1"] };
    const second = { ...ev("oc_1", "e2"), dedupeKeys: ["event:e2", "message:om_1"] };
    assert.equal(await j.admit(first), "queued");
    assert.equal(await j.admit(second), "duplicate");
    // The refused event set none of its keys: its own event id is still new.
    assert.equal(await j.admit(ev("oc_1", "e2")), "queued");
    assert.equal(j.stats().pending, 2);
  }));

Deno.test("dedupeKeys() counts the keys every admitted event set, across accounts", () =>
  withTempDir(async (dir) => {
    await using j = await openTestJournal(dir);
    assert.equal(await j.dedupeKeys(), 0);
    await j.admit({ ...ev("oc_1", "e1"), dedupeKeys: ["event:e1", "message:om_1"] });
    await j.admit(ev("oc_1", "e1"));
    await j.admit(ev("oc_1", "e1", "other"));
    assert.equal(await j.dedupeKeys(), 3);
  }));

Deno.test("admit() scopes dedupe keys to the account", () =>
  withTempDir(async (dir) => {
    await using j = await openTestJournal(dir);
    assert.equal(await j.admit(ev("oc_1", "e1", "bot_a")), "queued");
    assert.equal(await j.admit(ev("oc_1", "e1", "bot_b")), "queued");
    assert.equal(await j.admit(ev("oc_1", "e1", "bot_a")), "duplicate");
  }));

Deno.test("admit() lets exactly one of two concurrent admits of one event through", () =>
  withTempDir(async (dir) => {
    await using j = await openTestJournal(dir);
    const results = await Promise.all([1, 2, 3].map(() => j.admit(ev("oc_1", "e1"))));
    assert.deepEqual(results.sort(), ["duplicate", "duplicate", "queued"]);
    assert.equal(j.stats().pending, 1);
  }));

Deno.test("admit() refuses a duplicate dedupe key after the journal is closed and reopened", () =>
  withTempDir(async (dir) => {
    const first = await openTestJournal(dir);
    assert.equal(await first.admit(ev("oc_1", "e1")), "queued");
    first.start(() => {});
    await first.idle();
    await first.close();
    await using second = await openTestJournal(dir);
    assert.equal(await second.admit(ev("oc_1", "e1")), "duplicate");
    assert.equal(await second.admit(ev("oc_1", "e2")), "queued");
  }));

Deno.test("admit() rejects bad input before any write", () =>
  withTempDir(async (dir) => {
    await using j = await openTestJournal(dir);
    await assert.rejects(
      j.admit({ ...ev("oc_1", "e1"), account: "" }),
      /Expected account to be a non-empty string but found /,
    );
    await assert.rejects(
      j.admit({ ...ev("oc_1", "e1"), dedupeKeys: [""] }),
      /Expected every dedupe key to be a non-empty string/,
    );
    await assert.rejects(
      j.admit({ ...ev("oc_1", "e1"), payload: { big: "x".repeat(17 * 1024 * 1024) } }),
      RangeError,
    );
    assert.equal(await j.admit(ev("oc_1", "e1")), "queued");
    assert.equal(j.stats().pending, 1);
  }));

Deno.test("openJournal() rejects a dedupe lifetime under 24 hours and a bad attempt count", () =>
  withTempDir(async (dir) => {
    assert.equal(DEFAULT_DEDUPE_TTL_MS, 7 * 24 * 3600 * 1000);
    await assert.rejects(
      openTestJournal(dir, { dedupeTtlMs: MIN_DEDUPE_TTL_MS - 1 }),
      /Expected dedupeTtlMs to be at least 86400000 but found 86399999/,
    );
    await assert.rejects(
      openTestJournal(dir, { maxAttempts: 0 }),
      /Expected maxAttempts to be an integer of at least 1 but found 0/,
    );
  }));

Deno.test("start() runs one job at a time per chat and keeps admit order under an interleaved burst", () =>
  withTempDir(async (dir) => {
    await using j = await openTestJournal(dir);
    const chats = ["oc_a", "oc_b", "oc_c", "oc_d"];
    const inFlight = new Map<string, number>();
    let overlaps = 0;
    let maxParallel = 0;
    const order = new Map<string, number[]>();
    j.start(async (job) => {
      const now = (inFlight.get(job.chatKey) ?? 0) + 1;
      inFlight.set(job.chatKey, now);
      if (now > 1) overlaps++;
      maxParallel = Math.max(maxParallel, [...inFlight.values()].reduce((a, b) => a + b, 0));
      await yieldToEventLoop();
      const payload = job.payload as { n: number };
      order.set(job.chatKey, [...order.get(job.chatKey) ?? [], payload.n]);
      await yieldToEventLoop();
      inFlight.set(job.chatKey, inFlight.get(job.chatKey)! - 1);
    });
    // 200 admits in flight at once, chats interleaved; admit order is n order per chat.
    const admits = Array.from({ length: 200 }, (_, n) => {
      const chatKey = chats[(n * 7 + Math.floor(n / 3)) % chats.length]!;
      return j.admit({ account: "main", chatKey, dedupeKeys: [`e${n}`], payload: { n } });
    });
    assert.ok((await Promise.all(admits)).every((r) => r === "queued"));
    await j.idle();
    assert.equal(overlaps, 0);
    let total = 0;
    for (const chat of chats) {
      const seen = order.get(chat) ?? [];
      total += seen.length;
      assert.deepEqual(seen, [...seen].sort((a, b) => a - b), `order of ${chat}`);
    }
    assert.equal(total, 200);
    assert.ok(maxParallel > 1, "chats ran in parallel at least once");
    assert.equal(j.stats().processed, 200);
    assert.deepEqual(j.stats().fifo, []);
  }));

Deno.test("start() runs different chats concurrently: chat A waits for chat B's job", () =>
  withTempDir(async (dir) => {
    await using j = await openTestJournal(dir);
    const bRan = deferred();
    const events: string[] = [];
    j.start(async (job) => {
      if (job.chatKey === "oc_a") {
        events.push("A start");
        await bRan.promise;
        events.push("A end");
      } else {
        events.push("B ran");
        bRan.resolve();
      }
    });
    await j.admit(ev("oc_a", "a1"));
    await j.admit(ev("oc_b", "b1"));
    await j.idle();
    assert.deepEqual(events, ["A start", "B ran", "A end"]);
  }));

Deno.test("start() resumes every non-empty FIFO found at open, in order", () =>
  withTempDir(async (dir) => {
    const before = await openTestJournal(dir);
    for (const [chat, id] of [["oc_1", "x1"], ["oc_2", "y1"], ["oc_1", "x2"], ["oc_1", "x3"]]) {
      await before.admit(ev(chat!, id!));
    }
    await before.close();
    await using after = await openTestJournal(dir);
    assert.deepEqual(
      after.stats().fifo.sort((a, b) => a.chatKey.localeCompare(b.chatKey)),
      [
        { account: "main", chatKey: "oc_1", depth: 3 },
        { account: "main", chatKey: "oc_2", depth: 1 },
      ],
    );
    const seen: string[] = [];
    after.start((job) => void seen.push((job.payload as { id: string }).id));
    await after.idle();
    assert.deepEqual(seen.filter((id) => id.startsWith("x")), ["x1", "x2", "x3"]);
    assert.deepEqual(seen.filter((id) => id.startsWith("y")), ["y1"]);
  }));

Deno.test("admit() orders entries after those found at open even when the clock stepped back", () =>
  withTempDir(async (dir) => {
    const early = await openTestJournal(dir, { clock: new ManualClock(5_000_000) });
    await early.admit(ev("oc_1", "old"));
    await early.close();
    await using late = await openTestJournal(dir, { clock: new ManualClock(0) });
    await late.admit(ev("oc_1", "new"));
    const jobs: Job[] = [];
    late.start((job) => void jobs.push(job));
    await late.idle();
    assert.deepEqual(jobs.map((job) => (job.payload as { id: string }).id), ["old", "new"]);
    assert.ok(jobs[1]!.seq > jobs[0]!.seq);
  }));

Deno.test("start() hands the handler the job's identity, payload and first attempt", () =>
  withTempDir(async (dir) => {
    await using j = await openTestJournal(dir);
    const jobs: Job[] = [];
    j.start((job) => void jobs.push(job));
    await j.admit({
      account: "main",
      chatKey: "oc_9",
      dedupeKeys: ["k"],
      payload: { a: [1, "二"] },
    });
    await j.idle();
    assert.equal(jobs.length, 1);
    const { account, chatKey, payload, attempt, signal } = jobs[0]!;
    assert.deepEqual({ account, chatKey, payload, attempt }, {
      account: "main",
      chatKey: "oc_9",
      payload: { a: [1, "二"] },
      attempt: 1,
    });
    assert.equal(signal.aborted, false);
  }));

Deno.test("admit() keeps a payload larger than one KV value whole", () =>
  withTempDir(async (dir) => {
    const text = "飞书".repeat(60_000) + "end";
    const first = await openTestJournal(dir);
    await first.admit({ account: "main", chatKey: "oc_1", dedupeKeys: ["big"], payload: { text } });
    await first.close();
    await using j = await openTestJournal(dir);
    let got: unknown = null;
    j.start((job) => void (got = job.payload));
    await j.idle();
    assert.deepEqual(got, { text });
  }));

Deno.test("start() wakes a chat's worker for each later admit, in process", () =>
  withTempDir(async (dir) => {
    await using j = await openTestJournal(dir);
    const seen: unknown[] = [];
    j.start((job) => void seen.push(job.payload));
    await j.admit(ev("oc_1", "e1"));
    await j.idle();
    await j.admit(ev("oc_2", "e2"));
    await j.admit(ev("oc_1", "e3"));
    await j.idle();
    assert.equal(seen.length, 3);
    assert.equal(j.stats().processed, 3);
  }));

Deno.test("admit() and start() refuse to run on a closed journal", () =>
  withTempDir(async (dir) => {
    const j = await openTestJournal(dir);
    await j.close();
    await j.close();
    await assert.rejects(j.admit(ev("oc_1", "e1")), /Expected an open journal but found it closed/);
    assert.throws(() => j.start(() => {}), /Expected an open journal/);
  }));

Deno.test("admit() journals a payload larger than one commit holds, and the worker gets it whole", () =>
  withTempDir(async (dir) => {
    await using j = await openTestJournal(dir);
    const big = { text: "长".repeat(400_000) }; // 1.2 MB of UTF-8
    assert.equal(await j.admit({ ...ev("oc_1", "e1"), payload: big }), "queued");
    const seen: unknown[] = [];
    j.start((job) => {
      seen.push(job.payload);
    });
    await j.idle();
    assert.deepEqual(seen, [big]);
    // Processed: no staged part stays behind.
    const kv = await Deno.openKv(join(dir, "queue.kv"));
    try {
      const left = await Array.fromAsync(kv.list({ prefix: ["journal", "staged"] }));
      assert.equal(left.length, 0);
    } finally {
      kv.close();
    }
  }));

Deno.test("openJournal() sweeps staged parts no entry points at (an intake cut short after staging)", () =>
  withTempDir(async (dir) => {
    const kv = await Deno.openKv(join(dir, "queue.kv"));
    await kv.set(["journal", "staged", "orphan", 0], new Uint8Array([1, 2, 3]));
    kv.close();
    await using j = await openTestJournal(dir);
    assert.equal(
      await j.admit({ ...ev("oc_1", "e1"), payload: { x: "y".repeat(900_000) } }),
      "queued",
    );
    await j.close();
    const again = await Deno.openKv(join(dir, "queue.kv"));
    try {
      const keys = (await Array.fromAsync(again.list({ prefix: ["journal", "staged"] })))
        .map((e) => String(e.key[2]));
      // The orphan is gone; the admitted entry's parts stay until it is processed.
      assert.ok(!keys.includes("orphan"));
      assert.ok(keys.length > 0);
    } finally {
      again.close();
    }
  }));
