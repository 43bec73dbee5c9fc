import assert from "node:assert/strict";
import { systemClock } from "../core/mod.ts";
import { MIGRATIONS } from "./migrations.ts";
import { openStore } from "./mod.ts";
import { storeBefore } from "./testdata/stores.ts";

/** The migration that turned create_time into ms (found by name: versions are renumbered). */
const MS = MIGRATIONS.findIndex((m) => m.name.startsWith("create_time in ms"));

Deno.test("the create_time migration scales seconds, takes a message's ms from its event within the same second, and leaves the rest", async () => {
  assert.ok(MS > 0);
  const dir = await Deno.makeTempDir();
  try {
    const old = await storeBefore(dir, MS);
    const insert = old.prepare(
      `INSERT INTO records (account, id, chat_id, direction, kind, create_time, record, updated_at)
       VALUES ('main', ?, 'oc_1', ?, ?, ?, ?, 0)`,
    );
    const message = (ms: string) =>
      JSON.stringify({ feishu: { event: { message: { create_time: ms } } } });
    insert.run("late", "incoming", "message", 1_785_000_000_000, message("1785000000200"));
    insert.run("early", "incoming", "message", 1_785_000_000_000, message("1785000000900"));
    insert.run("seconds", "incoming", "message", 1_785_000_001, message("1785000001500"));
    insert.run("other_second", "incoming", "message", 1_785_000_009_000, message("1785000002000"));
    insert.run("sent", "outgoing", "sent", 1_785_000_000_000, JSON.stringify({}));
    insert.run("event", "incoming", "event", 1_785_000_003, JSON.stringify({ feishu: {} }));
    old.close();

    const store = openStore(dir, systemClock);
    try {
      const times = Object.fromEntries(
        store.records.listChat("main", "oc_1", null).map((r) => [r.id, r.createTime]),
      );
      assert.deepEqual(times, {
        late: 1_785_000_000_200,
        early: 1_785_000_000_900,
        seconds: 1_785_000_001_500,
        other_second: 1_785_000_009_000,
        sent: 1_785_000_000_000,
        event: 1_785_000_003_000,
      });
      // Stored before, read in Feishu's order now.
      assert.deepEqual(
        store.records.listChat("main", "oc_1", null).map((r) => r.id),
        ["other_second", "event", "seconds", "early", "late", "sent"],
      );
      assert.deepEqual(store.health.all(), []);
    } finally {
      store.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
