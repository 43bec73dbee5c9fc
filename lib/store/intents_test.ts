import assert from "node:assert/strict";
import { ManualClock } from "../core/mod.ts";
import { type DeliveredChunk, openStore } from "./mod.ts";

const chunk = (index: number, id = `om_${index}`): DeliveredChunk => ({
  index,
  message_id: id,
  chat_id: "oc_1",
  thread_id: null,
  root_id: null,
  parent_id: null,
  create_time: 1000 + index,
});

const intent = (id: string, identity = "h1") => ({
  account: "main",
  id,
  identity,
  plan: { target: { kind: "create" } },
  bodies: [{ msg_type: "text", content: '{"text":"a"}' }, {
    msg_type: "text",
    content: '{"text":"b"}',
  }],
  uuids: [`${id}-u0`, `${id}-u1`],
});

async function withStore(fn: (dir: string, clock: ManualClock) => void | Promise<void>) {
  const dir = await Deno.makeTempDir();
  try {
    await fn(dir, new ManualClock(10_000));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("IntentStore keeps an intent's plan, bodies, uuids and answered chunks across a reopen of the store", () =>
  withStore((dir, clock) => {
    const first = openStore(dir, clock);
    first.intents.open(intent("i1"));
    first.intents.delivered("main", "i1", chunk(0));
    first.close(); // as a crash would leave it
    const again = openStore(dir, clock);
    try {
      const got = again.intents.get("main", "i1")!;
      assert.deepEqual(got.plan, { target: { kind: "create" } });
      assert.deepEqual(got.bodies, intent("i1").bodies);
      assert.deepEqual(got.uuids, ["i1-u0", "i1-u1"]);
      assert.deepEqual(got.delivered, [chunk(0)]);
      assert.equal(got.state, "open");
      assert.equal(got.createdAt, 10_000);
      assert.deepEqual(again.intents.unfinished("main").map((i) => i.id), ["i1"]);
    } finally {
      again.close();
    }
  }));

Deno.test("IntentStore.delivered() adds each chunk at its index, and a repeat's answer replaces it", () =>
  withStore((dir, clock) => {
    const s = openStore(dir, clock);
    try {
      s.intents.open(intent("i1"));
      s.intents.delivered("main", "i1", chunk(0));
      s.intents.delivered("main", "i1", chunk(1));
      s.intents.delivered("main", "i1", chunk(0, "om_0"));
      assert.deepEqual(s.intents.get("main", "i1")!.delivered, [chunk(0), chunk(1)]);
      assert.throws(() => s.intents.delivered("main", "i1", chunk(-1)), RangeError);
    } finally {
      s.close();
    }
  }));

Deno.test("IntentStore.reusable() finds the newest intent of an identity since a time, in any state but done", () =>
  withStore((dir, clock) => {
    const s = openStore(dir, clock);
    try {
      s.intents.open(intent("old"));
      clock.advance(1000);
      s.intents.open(intent("new"));
      s.intents.open(intent("other", "h2"));
      assert.equal(s.intents.reusable("main", "h1", 0)?.id, "new");
      assert.equal(s.intents.reusable("main", "h1", 10_500)?.id, "new");
      assert.equal(s.intents.reusable("main", "h1", 11_001), null, "too old");
      assert.equal(s.intents.reusable("other", "h1", 0), null, "another account's");
      for (const state of ["incomplete", "recovered"] as const) {
        s.intents.settle("main", "new", state);
        assert.equal(s.intents.reusable("main", "h1", 10_500)?.id, "new", state);
      }
      s.intents.settle("main", "new", "done");
      assert.equal(s.intents.reusable("main", "h1", 0)?.id, "old");
      assert.equal(s.intents.get("main", "new"), null, "a done intent is not kept");
      assert.deepEqual(s.intents.unfinished("main").map((i) => i.id), ["old", "other"]);
    } finally {
      s.close();
    }
  }));

Deno.test("IntentStore.prune() deletes the intents created before a time, whatever their state", () =>
  withStore((dir, clock) => {
    const s = openStore(dir, clock);
    try {
      s.intents.open(intent("settled"));
      s.intents.open(intent("open"));
      s.intents.settle("main", "settled", "incomplete");
      clock.advance(5000);
      s.intents.open(intent("recent"));
      s.intents.settle("main", "recent", "recovered");
      assert.equal(s.intents.prune(12_000), 2);
      assert.equal(s.intents.get("main", "settled"), null);
      assert.equal(s.intents.get("main", "open"), null);
      assert.notEqual(s.intents.get("main", "recent"), null);
    } finally {
      s.close();
    }
  }));
