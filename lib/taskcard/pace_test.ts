import assert from "node:assert/strict";
import { ManualClock } from "../core/mod.ts";
import { RoutePacer, type RunResult } from "./pace.ts";

/** Lets pending promise callbacks run. */
const flush = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};

function recorder(result: () => RunResult = () => "ok") {
  const clock = new ManualClock(0);
  const runs: { key: string; create: boolean; at: number }[] = [];
  const pacer = new RoutePacer({
    clock,
    run: (key, create) => {
      runs.push({ key, create, at: clock.now() });
      return Promise.resolve(result());
    },
  });
  return { clock, runs, pacer };
}

Deno.test("RoutePacer delivers at once, then folds every request of the next second into one delivery", async () => {
  const { clock, runs, pacer } = recorder();
  pacer.request("a");
  clock.advance(0);
  await flush();
  assert.equal(runs.length, 1);
  for (let i = 0; i < 50; i++) pacer.request("a");
  clock.advance(500);
  await flush();
  assert.equal(runs.length, 1, "nothing before the route's second is over");
  clock.advance(500);
  await flush();
  assert.deepEqual(runs.map((r) => r.at), [0, 1000]);
  await pacer.idle();
  clock.advance(5000);
  await flush();
  assert.equal(runs.length, 2, "no request, no delivery");
  pacer.close();
});

Deno.test("RoutePacer paces routes independently", async () => {
  const { clock, runs, pacer } = recorder();
  pacer.request("a");
  pacer.request("b");
  clock.advance(0);
  await flush();
  pacer.request("a");
  clock.advance(1000);
  await flush();
  assert.deepEqual(runs.map((r) => `${r.key}@${r.at}`), ["a@0", "b@0", "a@1000"]);
  pacer.close();
});

Deno.test("RoutePacer keeps the create intent of any folded request", async () => {
  const { clock, runs, pacer } = recorder();
  pacer.request("a");
  clock.advance(0);
  await flush();
  pacer.request("a", true);
  pacer.request("a");
  clock.advance(1000);
  await flush();
  assert.deepEqual(runs.map((r) => r.create), [false, true]);
  pacer.close();
});

Deno.test("RoutePacer retries a failing route with growing pauses, then waits for the next change", async () => {
  const { clock, runs, pacer } = recorder(() => "failed");
  pacer.request("a");
  for (let i = 0; i < 12; i++) {
    clock.advance(i === 0 ? 0 : 60_000);
    await flush();
  }
  assert.equal(runs.length, 5, "the first attempt and four retries");
  const gaps = runs.slice(1).map((r, i) => r.at - runs[i]!.at);
  assert.ok(gaps.every((g) => g >= 2000), `pauses of at least 2 s: ${gaps}`);
  await pacer.idle();
  pacer.request("a");
  clock.advance(60_000);
  await flush();
  assert.equal(runs.length, 6, "a new change is tried again");
  pacer.close();
});

Deno.test("RoutePacer.idle waits for a delivery under way", async () => {
  const clock = new ManualClock(0);
  let release = () => {};
  const gate = new Promise<void>((r) => release = r);
  let finished = false;
  const pacer = new RoutePacer({
    clock,
    run: async () => {
      await gate;
      finished = true;
      return "ok";
    },
  });
  pacer.request("a");
  clock.advance(0);
  await flush();
  const idle = pacer.idle().then(() => finished);
  release();
  assert.equal(await idle, true);
  pacer.close();
});

Deno.test("RoutePacer reads a gap function after each delivery, so a longer gap applies from the next write", async () => {
  const clock = new ManualClock(0);
  const runs: number[] = [];
  let gap = 1000;
  const pacer = new RoutePacer({
    clock,
    gapMs: () => gap,
    run: () => {
      runs.push(clock.now());
      return Promise.resolve("ok" as const);
    },
  });
  const step = async (ms: number) => {
    clock.advance(ms);
    await flush();
  };
  pacer.request("a");
  await step(0);
  gap = 10_000;
  pacer.request("a");
  await step(1000);
  assert.deepEqual(runs, [0, 1000], "the write before the change keeps its short gap");
  pacer.request("a");
  await step(1000);
  await step(8000);
  assert.deepEqual(runs, [0, 1000], "then 10 s between writes");
  await step(1000);
  assert.deepEqual(runs, [0, 1000, 11_000]);
  gap = 1000;
  pacer.request("a");
  await step(10_000);
  pacer.request("a");
  await step(1000);
  assert.deepEqual(runs, [0, 1000, 11_000, 21_000, 22_000], "back to the short gap");
  await pacer.idle();
  pacer.close();
});
