import { deepEqual, equal, ok, rejects, throws } from "node:assert/strict";
import { type Clock, ManualClock } from "../core/mod.ts";
import { OutboundScheduler, type SchedulerOptions } from "./scheduler.ts";

/** A ManualClock that knows its pending deadlines, so a test can jump to the next one. */
class SteppingClock implements Clock {
  readonly inner = new ManualClock(0);
  readonly #pending: number[] = [];

  now(): number {
    return this.inner.now();
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    const at = this.now() + ms;
    this.#pending.push(at);
    return this.inner.sleep(ms, signal).finally(() => {
      this.#pending.splice(this.#pending.indexOf(at), 1);
    });
  }

  next(): number | undefined {
    return this.#pending.length === 0 ? undefined : Math.min(...this.#pending);
  }
}

/** Lets every already-queued promise callback run (no timers involved). */
async function settle(): Promise<void> {
  for (let i = 0; i < 50; i++) await Promise.resolve();
}

/** Advances the clock from deadline to deadline until `work` settles. */
async function drive<T>(clock: SteppingClock, work: Promise<T>): Promise<T> {
  let done = false;
  work.then(() => (done = true), () => (done = true));
  for (let steps = 0; steps < 100_000; steps++) {
    await settle();
    if (done) return await work;
    const next = clock.next();
    if (next === undefined) throw new Error("Expected a pending wait but found none: stuck");
    clock.inner.advance(next - clock.now());
  }
  throw new Error("Expected the work to finish but it kept waiting");
}

/** Asserts no rolling window of `windowMs` holds more than `max` of `times`. */
function assertRate(times: number[], max: number, windowMs = 1000): void {
  const sorted = [...times].sort((a, b) => a - b);
  for (let i = 0; i + max < sorted.length; i++) {
    ok(
      sorted[i + max]! - sorted[i]! >= windowMs,
      `${max + 1} sends within ${windowMs} ms at ${sorted[i]}`,
    );
  }
}

interface Sent {
  key: string;
  label: string;
  at: number;
}

function setup(options: Partial<SchedulerOptions> = {}) {
  const clock = new SteppingClock();
  const scheduler = new OutboundScheduler({ clock, ...options });
  const sent: Sent[] = [];
  const message = (key: string, labels: string[], signal?: AbortSignal) =>
    scheduler.run(key, async (slot) => {
      for (const label of labels) {
        await slot();
        sent.push({ key, label, at: clock.now() });
      }
    }, { signal });
  return { clock, scheduler, sent, message };
}

Deno.test("OutboundScheduler keeps a burst of 50 messages to one chat within 5 per rolling second", async () => {
  const { clock, sent, message } = setup();
  const all = Promise.all(Array.from({ length: 50 }, (_, i) => message("oc_1", [`m${i}`])));
  await drive(clock, all);
  equal(sent.length, 50);
  deepEqual(sent.map((s) => s.label), Array.from({ length: 50 }, (_, i) => `m${i}`));
  assertRate(sent.map((s) => s.at), 5);
  equal(sent.at(-1)!.at, 9000);
});

Deno.test("OutboundScheduler sends the chunks of one message in order at the chat's pace", async () => {
  const { clock, sent, message } = setup();
  const labels = Array.from({ length: 12 }, (_, i) => `c${i}`);
  await drive(clock, message("oc_1", labels));
  deepEqual(sent.map((s) => s.label), labels);
  assertRate(sent.map((s) => s.at), 5);
});

Deno.test("OutboundScheduler never interleaves two messages to the same chat", async () => {
  const { clock, sent, message } = setup({ perChatPerSecond: 2 });
  await drive(
    clock,
    Promise.all([message("oc_1", ["a1", "a2", "a3"]), message("oc_1", ["b1", "b2", "b3"])]),
  );
  deepEqual(sent.map((s) => s.label), ["a1", "a2", "a3", "b1", "b2", "b3"]);
});

Deno.test("OutboundScheduler lets different chats proceed in parallel", async () => {
  const { clock, sent, message } = setup();
  await drive(
    clock,
    Promise.all([
      message("oc_1", ["x1", "x2", "x3", "x4", "x5"]),
      message("oc_2", ["y1", "y2", "y3", "y4", "y5"]),
    ]),
  );
  deepEqual(sent.map((s) => s.at), Array(10).fill(0));
});

Deno.test("OutboundScheduler keeps the whole app under its cap across chats", async () => {
  const { clock, sent, message } = setup({ appPerSecond: 8 });
  const runs = ["oc_1", "oc_2", "oc_3"].flatMap((key) =>
    Array.from({ length: 6 }, (_, i) => message(key, [`${key}-${i}`]))
  );
  await drive(clock, Promise.all(runs));
  equal(sent.length, 18);
  assertRate(sent.map((s) => s.at), 8);
  for (const key of ["oc_1", "oc_2", "oc_3"]) {
    const mine = sent.filter((s) => s.key === key);
    assertRate(mine.map((s) => s.at), 5);
    deepEqual(mine.map((s) => s.label), Array.from({ length: 6 }, (_, i) => `${key}-${i}`));
  }
});

Deno.test("OutboundScheduler honours a blocked-until hint for one chat, then for the app", async () => {
  const { clock, scheduler, sent, message } = setup();
  scheduler.blockFor(2, { key: "oc_1" });
  await drive(clock, Promise.all([message("oc_1", ["late"]), message("oc_2", ["free"])]));
  deepEqual(sent.map((s) => [s.label, s.at]), [["free", 0], ["late", 2000]]);
  scheduler.blockFor(1.5);
  await drive(clock, message("oc_3", ["after"]));
  deepEqual(sent.at(-1), { key: "oc_3", label: "after", at: 3500 });
});

Deno.test("OutboundScheduler drops a queued message whose signal aborts and serves the next", async () => {
  const { clock, sent, message } = setup();
  const abort = new AbortController();
  const first = message("oc_1", ["first"]);
  const dropped = message("oc_1", ["dropped"], abort.signal);
  const third = message("oc_1", ["third"]);
  abort.abort(new Error("user cancelled"));
  await rejects(dropped, { message: "user cancelled" });
  await drive(clock, Promise.all([first, third]));
  deepEqual(sent.map((s) => s.label), ["first", "third"]);
});

Deno.test("OutboundScheduler stops a message waiting for a slot when aborted and frees the chat", async () => {
  const { clock, sent, message } = setup({ perChatPerSecond: 1 });
  const abort = new AbortController();
  const waiting = message("oc_1", ["one", "two"], abort.signal);
  const next = message("oc_1", ["next"]);
  await settle();
  deepEqual(sent.map((s) => s.label), ["one"]);
  abort.abort(new Error("stop"));
  await rejects(waiting, { message: "stop" });
  await drive(clock, next);
  deepEqual(sent.map((s) => [s.label, s.at]), [["one", 0], ["next", 1000]]);
});

Deno.test("OutboundScheduler frees the chat when a message fails", async () => {
  const { clock, scheduler, sent, message } = setup();
  const failing = scheduler.run("oc_1", async (slot) => {
    await slot();
    throw new Error("send failed");
  });
  const after = message("oc_1", ["after"]);
  await rejects(failing, { message: "send failed" });
  await drive(clock, after);
  deepEqual(sent.map((s) => s.label), ["after"]);
});

Deno.test("OutboundScheduler refuses waiting and new messages once closed", async () => {
  const { scheduler, message } = setup({ perChatPerSecond: 1 });
  const running = message("oc_1", ["a", "b"]);
  const queued = message("oc_1", ["c"]);
  await settle();
  scheduler.close();
  await rejects(running, /found it closed/);
  await rejects(queued, /found it closed/);
  await rejects(message("oc_2", ["d"]), /found it closed/);
});

Deno.test("OutboundScheduler rejects rates that are not positive integers", () => {
  const clock = new ManualClock(0);
  throws(
    () => new OutboundScheduler({ clock, perChatPerSecond: 0 }),
    /perChatPerSecond to be an integer greater than 0/,
  );
  throws(() => new OutboundScheduler({ clock, appPerSecond: 2.5 }), /but found 2.5/);
});

Deno.test("OutboundScheduler counts an answered send from its answer, so a slow first call cannot crowd the next second", async () => {
  const { clock, scheduler } = setup({ perChatPerSecond: 2 });
  const given: number[] = [];
  const work = scheduler.run("oc_1", async (slot) => {
    for (let i = 0; i < 3; i++) {
      const done = await slot();
      given.push(clock.now());
      // The first call takes 300 ms to be answered (a token fetch before it, say).
      if (i === 0) await clock.sleep(300);
      done();
    }
  });
  await drive(clock, work);
  // Without the answer time the third send would go at 1000; counted from the answer it waits to 1300.
  deepEqual(given, [0, 300, 1300]);
});
