import assert from "node:assert/strict";
import { Slots } from "./_slots.ts";

Deno.test("Slots hands a released slot to the oldest waiter, never to a later caller", async () => {
  const slots = new Slots(2);
  const live = new AbortController().signal;
  const a = await slots.acquire(live);
  const b = await slots.acquire(live);
  const got: string[] = [];
  const c = slots.acquire(live).then((release) => (got.push("c"), release));
  const d = slots.acquire(live).then((release) => (got.push("d"), release));
  assert.deepEqual([slots.free, slots.waiting], [0, 2]);
  a();
  // A caller arriving now queues behind c and d even though a slot was just released.
  const e = slots.acquire(live).then((release) => (got.push("e"), release));
  b();
  (await c)();
  (await d)();
  (await e)();
  assert.deepEqual(got, ["c", "d", "e"]);
  assert.deepEqual([slots.free, slots.waiting], [2, 0]);
});

Deno.test("Slots drops an aborted waiter without giving it a slot, and a second release does nothing", async () => {
  const slots = new Slots(1);
  const live = new AbortController().signal;
  const stop = new AbortController();
  const held = await slots.acquire(live);
  const dropped = slots.acquire(stop.signal);
  const next = slots.acquire(live);
  stop.abort(new Error("closing"));
  await assert.rejects(dropped, /closing/);
  assert.equal(slots.waiting, 1);
  held();
  held();
  const release = await next;
  assert.deepEqual([slots.free, slots.waiting], [0, 0]);
  release();
  assert.equal(slots.free, 1);
  await assert.rejects(slots.acquire(stop.signal), /closing/);
  assert.equal(slots.free, 1);
});
