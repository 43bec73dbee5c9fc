import assert from "node:assert/strict";
import { createLogger, ManualClock } from "../core/mod.ts";
import { type Outage, StorageWatch } from "./storage_watch.ts";

const FULL = () => new TypeError("database or disk is full");
const log = createLogger({ sink: () => {} });

/** Lets the watch's promise chains run (a zero-delay yield, not a wait). */
const settle = () => new Promise((r) => setTimeout(r, 0));

/** A watch whose probe fails while `disk.full`, recording each catch-up it is handed. */
function rig(catchUp: (outage: Outage) => boolean = () => true) {
  const clock = new ManualClock(10_000);
  const disk = { full: true, probes: 0 };
  const outages: Outage[] = [];
  const watch = new StorageWatch({
    clock,
    log,
    probe: () => {
      disk.probes++;
      return disk.full ? Promise.reject(FULL()) : Promise.resolve();
    },
    onRecovered: (outage) => {
      outages.push(outage);
      return Promise.resolve(catchUp(outage));
    },
    backoff: { baseMs: 100, maxMs: 400 },
  });
  return { clock, disk, outages, watch };
}

Deno.test("StorageWatch probes with backoff after a failed write and, once writing works, hands one catch-up the oldest unwritten message per chat", async () => {
  const { clock, disk, outages, watch } = rig();
  watch.failed(FULL(), { chatId: "oc_1", chatType: "p2p", createTime: 2000 });
  watch.failed(FULL(), { chatId: "oc_1", chatType: null, createTime: 1000 });
  watch.failed(FULL(), { chatId: "oc_2", chatType: "group", createTime: null });
  assert.deepEqual(watch.view(), {
    state: "disk_full",
    since: new Date(10_000).toISOString(),
    last_error: "disk full: database or disk is full",
    failed_writes: 3,
    catch_ups: 0,
  });
  // One probe loop, however many failures: 100, 200, 400, 400 ms apart.
  assert.deepEqual(clock.pendingDelays(), [100]);
  for (const [delay, probes] of [[100, 1], [200, 2], [400, 3]] as const) {
    clock.advance(delay);
    await settle();
    assert.equal(disk.probes, probes);
  }
  assert.deepEqual(clock.pendingDelays(), [400]);
  disk.full = false;
  clock.advance(400);
  await settle();
  await watch.settled();
  assert.equal(outages.length, 1);
  assert.deepEqual([...outages[0]!.chats], [
    ["oc_1", { chatType: "p2p", oldest: 1000 }],
    ["oc_2", { chatType: "group", oldest: null }],
  ]);
  assert.equal(watch.view().state, "ok");
  assert.equal(watch.view().catch_ups, 1);
  assert.equal(clock.pendingSleeps(), 0);
  // Later writes find no outage: no second catch-up.
  watch.succeeded();
  await watch.settled();
  assert.equal(outages.length, 1);
});

Deno.test("StorageWatch starts the catch-up at the first successful write of an event, before the probe", async () => {
  const { disk, outages, watch } = rig();
  watch.failed(FULL(), { chatId: "oc_1", chatType: "p2p", createTime: 1000 });
  watch.succeeded();
  await watch.settled();
  assert.equal(outages.length, 1);
  assert.equal(disk.probes, 0);
});

Deno.test("StorageWatch keeps an outage whose catch-up did not complete and hands it over again, merged, at the next recovery", async () => {
  let runs = 0;
  const { outages, watch } = rig(() => ++runs > 1);
  watch.failed(FULL(), { chatId: "oc_1", chatType: "p2p", createTime: 1000 });
  watch.succeeded();
  await watch.settled();
  watch.failed(FULL(), { chatId: "oc_2", chatType: "p2p", createTime: 5000 });
  watch.succeeded();
  await watch.settled();
  assert.equal(outages.length, 2);
  assert.deepEqual([...outages[1]!.chats.keys()].sort(), ["oc_1", "oc_2"]);
  watch.succeeded();
  await watch.settled();
  assert.equal(outages.length, 2);
});
