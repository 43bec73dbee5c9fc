import assert from "node:assert/strict";
import { join } from "node:path";
import {
  capturedLog,
  deferred,
  openTestJournal,
  SleepWatchClock,
  until,
  withTempDir,
} from "./testdata/helpers.ts";
import { type Job, PermanentFailure, RetryLater } from "./mod.ts";
import { failureStep } from "./types.ts";
import { STORAGE_RETRY_MS } from "./_worker.ts";

const ev = (id: string, chatKey = "oc_1") => ({
  account: "main",
  chatKey,
  dedupeKeys: [id],
  payload: { id },
});
const idOf = (job: Job) => (job.payload as { id: string }).id;

Deno.test("start() retries a throwing handler in order, backing off on the injected clock", () =>
  withTempDir(async (dir) => {
    const clock = new SleepWatchClock(1_000);
    const { log, lines } = capturedLog();
    await using j = await openTestJournal(dir, { clock, log, backoff: { baseMs: 100 } });
    const runs: string[] = [];
    j.start((job) => {
      runs.push(`${idOf(job)}#${job.attempt}`);
      if (idOf(job) === "e1" && job.attempt < 3) throw new Error(`flaky ${job.attempt}`);
    });
    await j.admit(ev("e1"));
    await j.admit(ev("e2"));
    assert.equal(await clock.nextSleep(), 100);
    assert.deepEqual(runs, ["e1#1"]);
    clock.advance(99);
    assert.deepEqual(runs, ["e1#1"]);
    clock.advance(1);
    assert.equal(await clock.nextSleep(), 200);
    assert.deepEqual(runs, ["e1#1", "e1#2"]);
    clock.advance(200);
    await j.idle();
    assert.deepEqual(runs, ["e1#1", "e1#2", "e1#3", "e2#1"]);
    const s = j.stats();
    assert.equal(s.failures, 2);
    assert.equal(s.processed, 2);
    assert.equal(s.deadLetters, 0);
    assert.equal(lines.filter((l) => l.includes("will retry")).length, 2);
    assert.ok(lines.some((l) => l.includes("Error: flaky 1")));
  }));

Deno.test("start() keeps other chats moving while one chat backs off", () =>
  withTempDir(async (dir) => {
    const clock = new SleepWatchClock(0);
    await using j = await openTestJournal(dir, { clock });
    const ran: string[] = [];
    j.start((job) => {
      ran.push(idOf(job));
      if (job.chatKey === "oc_bad" && job.attempt === 1) throw new Error("boom");
    });
    await j.admit(ev("bad1", "oc_bad"));
    await clock.nextSleep();
    await j.admit(ev("good1", "oc_good"));
    await j.admit(ev("good2", "oc_good"));
    await until(() => j.stats().processed === 2);
    assert.deepEqual(ran, ["bad1", "good1", "good2"]);
    clock.advance(1_000);
    await j.idle();
    assert.deepEqual(ran, ["bad1", "good1", "good2", "bad1"]);
  }));

Deno.test("start() dead-letters an entry after maxAttempts runs and moves on to the next", () =>
  withTempDir(async (dir) => {
    const clock = new SleepWatchClock(0);
    const { log, lines } = capturedLog();
    const j = await openTestJournal(dir, {
      clock,
      log,
      maxAttempts: 3,
      backoff: { baseMs: 10, maxMs: 15 },
    });
    const runs: string[] = [];
    j.start((job) => {
      runs.push(`${idOf(job)}#${job.attempt}`);
      if (idOf(job) === "poison") throw new TypeError(`cannot parse ${job.attempt}`);
    });
    await j.admit(ev("poison"));
    await j.admit(ev("next"));
    assert.equal(await clock.nextSleep(), 10);
    clock.advance(10);
    assert.equal(await clock.nextSleep(), 15);
    clock.advance(15);
    await j.idle();
    assert.deepEqual(runs, ["poison#1", "poison#2", "poison#3", "next#1"]);
    const dead = await j.deadLetters();
    assert.equal(dead.length, 1);
    assert.deepEqual(
      { ...dead[0], seq: 0 },
      {
        account: "main",
        chatKey: "oc_1",
        seq: 0,
        payload: { id: "poison" },
        attempts: 3,
        error: "TypeError: cannot parse 3",
        admittedAt: 0,
        deadAt: 25,
      },
    );
    assert.equal(j.stats().deadLetters, 1);
    assert.equal(j.stats().failures, 3);
    assert.ok(lines.some((l) => l.includes("ERROR") && l.includes("dead-lettered")));
    await j.close();
    // Dead letters are durable and stay refused as duplicates.
    await using again = await openTestJournal(dir, { clock });
    assert.equal(again.stats().deadLetters, 1);
    assert.equal(await again.admit(ev("poison")), "duplicate");
  }));

Deno.test("start() keeps a large payload readable in its dead letter", () =>
  withTempDir(async (dir) => {
    const clock = new SleepWatchClock(0);
    await using j = await openTestJournal(dir, { clock, maxAttempts: 1 });
    j.start(() => Promise.reject(new Error("no")));
    const text = "x".repeat(150_000);
    await j.admit({ account: "main", chatKey: "oc_1", dedupeKeys: ["big"], payload: { text } });
    await j.idle();
    const [dead] = await j.deadLetters();
    assert.deepEqual(dead?.payload, { text });
  }));

Deno.test("start() persists a failed attempt and its retry time across a restart", () =>
  withTempDir(async (dir) => {
    const clock = new SleepWatchClock(0);
    const first = await openTestJournal(dir, { clock, backoff: { baseMs: 500 } });
    first.start(() => Promise.reject(new Error("down")));
    await first.admit(ev("e1"));
    assert.equal(await clock.nextSleep(), 500);
    await first.close();
    clock.advance(200);
    await using second = await openTestJournal(dir, { clock, backoff: { baseMs: 500 } });
    const attempts: number[] = [];
    second.start((job) => void attempts.push(job.attempt));
    // The restarted worker waits out the rest of the backoff, then runs attempt 2.
    assert.equal(await clock.nextSleep(), 300);
    assert.deepEqual(attempts, []);
    clock.advance(300);
    await second.idle();
    assert.deepEqual(attempts, [2]);
  }));

Deno.test("close() aborts a running job through job.signal and leaves its entry for the next run", () =>
  withTempDir(async (dir) => {
    const started = deferred();
    const first = await openTestJournal(dir);
    let sawAbort = false;
    first.start((job) =>
      new Promise((_, reject) => {
        job.signal.addEventListener("abort", () => {
          sawAbort = true;
          reject(job.signal.reason);
        });
        started.resolve();
      })
    );
    await first.admit(ev("e1"));
    await started.promise;
    assert.equal(first.stats().inFlight, 1);
    await first.close();
    assert.ok(sawAbort);
    assert.equal(first.stats().failures, 0);
    await using second = await openTestJournal(dir);
    assert.deepEqual(second.stats().fifo, [{ account: "main", chatKey: "oc_1", depth: 1 }]);
    const attempts: number[] = [];
    second.start((job) => void attempts.push(job.attempt));
    await second.idle();
    assert.deepEqual(attempts, [1]);
  }));

Deno.test("close() waits for a job that finishes anyway and consumes its entry", () =>
  withTempDir(async (dir) => {
    const started = deferred();
    const release = deferred();
    const first = await openTestJournal(dir);
    first.start(async () => {
      started.resolve();
      await release.promise;
    });
    await first.admit(ev("e1"));
    await started.promise;
    const closing = first.close();
    const idle = assert.rejects(first.idle(), /Expected an open journal but found it closed/);
    release.resolve();
    await closing;
    await idle;
    assert.equal(first.stats().processed, 1);
    await using second = await openTestJournal(dir);
    assert.equal(second.stats().pending, 0);
  }));

Deno.test("start() reports a KV fault outside the handler, waits the base delay and carries on", () =>
  withTempDir(async (dir) => {
    const clock = new SleepWatchClock(0);
    const { log, lines } = capturedLog();
    // The second handle opens first: a handle's own start-up writes could
    // otherwise meet the admit below ("database is locked": KV does not wait).
    const other = await Deno.openKv(join(dir, "queue.kv"));
    await using j = await openTestJournal(dir, { clock, log, backoff: { baseMs: 40 } });
    const runs: number[] = [];
    j.start(async (job) => {
      runs.push(job.seq);
      if (runs.length === 1) {
        // Another writer touches the entry while it runs: the delete's check fails.
        const key = ["journal", "fifo", job.account, job.chatKey, job.seq];
        const entry = await other.get<Record<string, unknown>>(key);
        await other.set(key, { ...entry.value, lastError: "touched" });
      }
    });
    await j.admit(ev("e1"));
    assert.equal(await clock.nextSleep(), 40);
    other.close();
    assert.equal(j.stats().faults, 1);
    assert.ok(
      lines.some((l) => l.includes("journal worker fault") && l.includes("another writer")),
    );
    clock.advance(40);
    await j.idle();
    assert.equal(runs.length, 2);
    assert.equal(runs[0], runs[1]);
    assert.equal(j.stats().processed, 1);
  }));

Deno.test("start() postpones a RetryLater job without spending attempts and never dead-letters it", () =>
  withTempDir(async (dir) => {
    const clock = new SleepWatchClock(0);
    await using j = await openTestJournal(dir, { clock, maxAttempts: 2 });
    const runs: string[] = [];
    let ready = false;
    j.start((job) => {
      runs.push(`${idOf(job)}#${job.attempt}`);
      if (!ready) throw new RetryLater("not yet", 500);
    });
    await j.admit(ev("e1"));
    // Each postponement arms one 500 ms wait; after the fifth, the precondition holds.
    while (!ready) {
      assert.equal(await clock.nextSleep(), 500);
      if (runs.length === 5) ready = true;
      clock.advance(500);
    }
    await j.idle();
    // Five postponements and the real run all count as the first attempt.
    assert.deepEqual(runs, Array(6).fill("e1#1"));
    const s = j.stats();
    assert.deepEqual([s.processed, s.failures, s.deadLetters], [1, 0, 0]);
  }));

Deno.test("failureStep() is the one classification: postpone, dead at once, retry until the last attempt", () => {
  const cases: [unknown, number, string][] = [
    [new RetryLater("identity unknown", 10), 1, "postpone"],
    [new RetryLater("identity unknown", 10), 8, "postpone"],
    [new PermanentFailure("unreadable"), 1, "dead"],
    [new RangeError("Maximum call stack size exceeded"), 1, "retry"],
    [new TypeError("error sending request"), 7, "retry"],
    [new Error("down"), 8, "dead"],
    [null, 1, "retry"],
  ];
  for (const [err, attempt, want] of cases) {
    assert.equal(failureStep(err, attempt, 8), want, `${String(err)} at ${attempt}`);
  }
});

Deno.test("start() dead-letters a PermanentFailure after its one run and moves on without a backoff", () =>
  withTempDir(async (dir) => {
    const clock = new SleepWatchClock(0);
    const { log, lines } = capturedLog();
    await using j = await openTestJournal(dir, { clock, log, maxAttempts: 8 });
    const runs: string[] = [];
    j.start((job) => {
      runs.push(`${idOf(job)}#${job.attempt}`);
      if (idOf(job) === "poison") throw new PermanentFailure("the click cannot be read");
    });
    await j.admit(ev("poison"));
    await j.admit(ev("next"));
    await j.idle();
    // No sleep was asked for: the next entry ran right after the one failed run.
    assert.deepEqual(runs, ["poison#1", "next#1"]);
    const [dead] = await j.deadLetters();
    assert.equal(dead?.attempts, 1);
    assert.equal(dead?.error, "PermanentFailure: the click cannot be read");
    assert.deepEqual(
      [j.stats().failures, j.stats().deadLetters, j.stats().processed],
      [1, 1, 1],
    );
    assert.ok(lines.some((l) => l.includes("dead-lettered at once")));
  }));

Deno.test("start() postpones a job that failed on a full disk without spending an attempt", () =>
  withTempDir(async (dir) => {
    const clock = new SleepWatchClock(0);
    await using j = await openTestJournal(dir, { clock, maxAttempts: 1 });
    await j.admit(ev("e1"));
    let runs = 0;
    j.start(() => {
      if (++runs === 1) throw new TypeError("database or disk is full");
    });
    assert.equal(await clock.nextSleep(), STORAGE_RETRY_MS);
    clock.advance(STORAGE_RETRY_MS);
    await j.idle();
    assert.equal(runs, 2);
    assert.equal(j.stats().deadLetters, 0);
    assert.equal(j.stats().processed, 1);
  }));
