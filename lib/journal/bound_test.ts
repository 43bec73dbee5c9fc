import assert from "node:assert/strict";
import {
  deferred,
  openTestJournal,
  SleepWatchClock,
  until,
  withTempDir,
  yieldToEventLoop,
} from "./testdata/helpers.ts";
import type { Job } from "./mod.ts";
import { DEFAULT_MAX_RUNNING } from "./open.ts";

const ev = (chatKey: string, id: string) => ({
  account: "main",
  chatKey,
  dedupeKeys: [id],
  payload: { id },
});
const idOf = (job: Job) => (job.payload as { id: string }).id;

Deno.test("start() runs at most maxRunning handlers across 200 chats, each entry once, in order per chat", () =>
  withTempDir(async (dir) => {
    await using j = await openTestJournal(dir, { maxRunning: 4 });
    // 200 one-entry chats, and one chat whose 10 entries are spread among them.
    const inputs = Array.from({ length: 200 }, (_, n) => ev(`oc_${n}`, `e${n}`));
    for (let k = 9; k >= 0; k--) inputs.splice(k * 20, 0, ev("oc_many", `m${k}`));
    assert.ok((await Promise.all(inputs.map((i) => j.admit(i)))).every((r) => r === "queued"));
    const gate = deferred();
    let running = 0;
    let most = 0;
    const runs = new Map<string, number>();
    const many: string[] = [];
    j.start(async (job) => {
      most = Math.max(most, ++running);
      await gate.promise;
      await yieldToEventLoop();
      runs.set(idOf(job), (runs.get(idOf(job)) ?? 0) + 1);
      if (job.chatKey === "oc_many") many.push(idOf(job));
      running--;
    });
    // Every due chat beyond the first four queues for a slot.
    await until(() => running > 4 || (running === 4 && j.stats().waiting === 197));
    assert.equal(running, 4);
    assert.deepEqual([j.stats().inFlight, j.stats().waiting], [4, 197]);
    gate.resolve();
    await j.idle();
    assert.equal(most, 4);
    assert.equal(runs.size, 210);
    assert.ok([...runs.values()].every((n) => n === 1), "every entry ran once");
    assert.deepEqual(many, Array.from({ length: 10 }, (_, k) => `m${k}`));
    const s = j.stats();
    assert.deepEqual([s.processed, s.inFlight, s.waiting, s.pending], [210, 0, 0, 0]);
  }));

Deno.test("start() frees the slot of a chat waiting out its backoff: another chat runs meanwhile", () =>
  withTempDir(async (dir) => {
    const clock = new SleepWatchClock(0);
    await using j = await openTestJournal(dir, { clock, maxRunning: 1 });
    const ran: string[] = [];
    j.start((job) => {
      ran.push(idOf(job));
      if (job.chatKey === "oc_bad" && job.attempt === 1) throw new Error("boom");
    });
    await j.admit(ev("oc_bad", "bad1"));
    // The failed run armed its backoff: the bad chat now waits on the clock.
    assert.equal(await clock.nextSleep(), 1_000);
    await j.admit(ev("oc_good", "good1"));
    await j.admit(ev("oc_good", "good2"));
    // Either the good chat finishes or it is stuck queueing for the one slot.
    await until(() => j.stats().processed === 2 || j.stats().waiting > 0);
    assert.equal(j.stats().waiting, 0);
    assert.deepEqual(ran, ["bad1", "good1", "good2"]);
    clock.advance(1_000);
    await j.idle();
    assert.deepEqual(ran, ["bad1", "good1", "good2", "bad1"]);
  }));

Deno.test("close() stops workers waiting for a slot without running them; their entries stay, no attempt spent", () =>
  withTempDir(async (dir) => {
    const first = await openTestJournal(dir, { maxRunning: 1 });
    const started = deferred();
    const ran: string[] = [];
    first.start((job) =>
      new Promise((_, reject) => {
        ran.push(idOf(job));
        if (job.signal.aborted) return reject(job.signal.reason);
        job.signal.addEventListener("abort", () => reject(job.signal.reason));
        started.resolve();
      })
    );
    await first.admit(ev("oc_a", "a1"));
    await started.promise;
    await first.admit(ev("oc_b", "b1"));
    await first.admit(ev("oc_c", "c1"));
    // Both queue behind a1 (or, unbounded, run at once).
    await until(() => first.stats().waiting === 2 || ran.length > 1);
    await first.close();
    assert.deepEqual(ran, ["a1"]);
    assert.deepEqual([first.stats().failures, first.stats().waiting], [0, 0]);
    await using second = await openTestJournal(dir);
    assert.equal(second.stats().pending, 3);
    const attempts: string[] = [];
    second.start((job) => void attempts.push(`${idOf(job)}#${job.attempt}`));
    await second.idle();
    assert.deepEqual(attempts.sort(), ["a1#1", "b1#1", "c1#1"]);
  }));

Deno.test("openJournal() rejects a maxRunning that is not an integer of at least 1", () =>
  withTempDir(async (dir) => {
    assert.equal(DEFAULT_MAX_RUNNING, 16);
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      await assert.rejects(
        openTestJournal(dir, { maxRunning: bad }),
        (err: unknown) =>
          err instanceof RangeError &&
          err.message === `Expected maxRunning to be an integer of at least 1 but found ${bad}`,
      );
    }
    await using j = await openTestJournal(dir, { maxRunning: 1 });
    assert.equal(j.stats().waiting, 0);
  }));
