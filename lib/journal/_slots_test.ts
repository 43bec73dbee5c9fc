import assert from "node:assert/strict";
import { Slots } from "./_slots.ts";

Deno.test("Slots hands a released slot to the oldest waiter, never to a later caller", async () => {
  const slots = new Slots(2, new AbortController().signal);
  const a = await slots.acquire();
  const b = await slots.acquire();
  const got: string[] = [];
  const c = slots.acquire().then((release) => (got.push("c"), release));
  const d = slots.acquire().then((release) => (got.push("d"), release));
  assert.deepEqual([slots.free, slots.waiting], [0, 2]);
  a();
  // A caller arriving now queues behind c and d even though a slot was just released.
  const e = slots.acquire().then((release) => (got.push("e"), release));
  b();
  (await c)();
  (await d)();
  (await e)();
  assert.deepEqual(got, ["c", "d", "e"]);
  assert.deepEqual([slots.free, slots.waiting], [2, 0]);
});

Deno.test("Slots ends every wait when its signal aborts, and a second release does nothing", async () => {
  const stop = new AbortController();
  const slots = new Slots(1, stop.signal);
  const held = await slots.acquire();
  const waits = [slots.acquire(), slots.acquire()];
  stop.abort(new Error("closing"));
  for (const w of waits) await assert.rejects(w, /closing/);
  assert.equal(slots.waiting, 0);
  await assert.rejects(slots.acquire(), /closing/);
  held();
  held();
  assert.deepEqual([slots.free, slots.waiting], [1, 0]);
});
