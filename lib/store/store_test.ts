import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { ManualClock, systemClock } from "../core/mod.ts";
import { stateDir } from "../core/mod.ts";
import { incomingRecord, sentRecordOf } from "./testdata/records.ts";
import { openStore } from "./mod.ts";
import { withStore } from "./testdata/stores.ts";
import { lockWorkdir } from "./lock.ts";
import { MIGRATIONS } from "./migrations.ts";
import type { RecordInput } from "./records.ts";

function msg(n: number, over: Partial<RecordInput> = {}): RecordInput {
  const id = `main:oc_1:om_${n}`;
  // A test may pair any kind with any record; the store keeps what it is given.
  return {
    account: "main",
    id,
    chatId: "oc_1",
    feishuMessageId: `om_${n}`,
    direction: "incoming",
    kind: "message",
    createTime: 1000 * n,
    fromOpenId: "ou_a",
    record: incomingRecord(`om_${n}`, {
      id,
      chat_id: "oc_1",
      text: `hello ${n}`,
      from_open_id: "ou_a",
      from_name: null,
    }),
    ...over,
  } as RecordInput;
}

Deno.test("openStore() creates store.db in WAL mode with the current schema", () =>
  withStore((s) => {
    assert.equal(s.db.prepare("PRAGMA journal_mode").get()?.journal_mode, "wal");
    assert.equal(
      s.db.prepare("SELECT value FROM meta WHERE key = 'app'").get()?.value,
      "feishu-mcp",
    );
    assert.equal(
      s.db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get()?.value,
      String(MIGRATIONS.at(-1)!.version),
    );
  }));

Deno.test("openStore() refuses a file that is not SQLite and leaves it untouched", async () => {
  const dir = await Deno.makeTempDir();
  const path = join(stateDir(dir), "store.db");
  await Deno.mkdir(stateDir(dir), { recursive: true });
  await Deno.writeTextFile(path, "this is not a database, it is a diary ".repeat(200));
  const before = await Deno.readFile(path);
  assert.throws(() => openStore(dir, systemClock), /store\.db is not a usable SQLite database/);
  assert.deepEqual(await Deno.readFile(path), before);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("openStore() refuses a SQLite file of another program", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.mkdir(stateDir(dir), { recursive: true });
  const foreign = new DatabaseSync(join(stateDir(dir), "store.db"));
  foreign.exec("CREATE TABLE invoices (id INTEGER PRIMARY KEY, amount REAL)");
  foreign.exec("INSERT INTO invoices (amount) VALUES (12.5)");
  foreign.close();
  assert.throws(
    () => openStore(dir, systemClock),
    /belongs to another program \(tables: invoices\)/,
  );
  const again = new DatabaseSync(join(stateDir(dir), "store.db"));
  assert.equal(again.prepare("SELECT COUNT(*) AS n FROM invoices").get()?.n, 1);
  again.close();
  await Deno.remove(dir, { recursive: true });
});

Deno.test("RecordStore.insert() is idempotent per (account, id)", () =>
  withStore((s) => {
    assert.equal(s.records.insert(msg(1)), true);
    assert.equal(
      s.records.insert(
        msg(1, { record: incomingRecord("om_1", { id: "main:oc_1:om_1", text: "changed" }) }),
      ),
      false,
    );
    assert.equal(s.records.get("main", "main:oc_1:om_1")?.record.text, "hello 1");
  }));

Deno.test("RecordStore.update() rewrites the JSON and status, keeps the other columns and indexes new chunks", () =>
  withStore((s) => {
    s.records.insert(msg(1, { direction: "outgoing", kind: "sent", status: "partial" }));
    const changed = s.records.update("main", "main:oc_1:om_1", {
      record: sentRecordOf("main:oc_1:om_1", { text: "whole now", status: "sent" }),
      status: "sent",
      chunkIds: ["main:oc_1:om_1", "main:oc_1:om_9"],
    });
    assert.equal(changed, true);
    const back = s.records.findByMessageId("main", "main:oc_1:om_9");
    assert.equal(back?.id, "main:oc_1:om_1");
    assert.equal(back?.status, "sent");
    assert.equal(back?.record.text, "whole now");
    assert.equal(back?.createTime, 1000);
    assert.equal(back?.direction, "outgoing");
    assert.equal(
      s.records.update("main", "main:oc_1:om_404", { record: sentRecordOf("main:oc_1:om_404") }),
      false,
    );
  }));

Deno.test("RecordStore.listChat() sorts by create time then arrival, newest first", () =>
  withStore((s) => {
    s.records.insert(msg(2));
    s.records.insert(msg(1));
    s.records.insert(msg(3, { createTime: 2000 })); // same time as 2, arrived later
    assert.deepEqual(s.records.listChat("main", "oc_1", null).map((r) => r.id), [
      "main:oc_1:om_3",
      "main:oc_1:om_2",
      "main:oc_1:om_1",
    ]);
    assert.deepEqual(s.records.listChat("main", "oc_1", 1).map((r) => r.id), ["main:oc_1:om_3"]);
  }));

Deno.test("RecordStore.conversations() counts totals and unread incoming records per chat", () =>
  withStore((s) => {
    s.records.insert(msg(1));
    s.records.insert(msg(2));
    s.records.insert(msg(3, { chatId: "oc_2", id: "main:oc_2:om_3" }));
    s.records.insert({
      account: "main",
      id: "main:oc_1:om_9",
      chatId: "oc_1",
      direction: "outgoing",
      kind: "sent",
      createTime: 9000,
      record: sentRecordOf("main:oc_1:om_9", { text: "reply" }),
      chunkIds: ["main:oc_1:om_9", "main:oc_1:om_10"],
    });
    s.records.markRead("main", ["main:oc_1:om_1", "main:oc_1:om_9"]);
    const conv = s.records.conversations("main");
    assert.deepEqual(conv.map((c) => [c.chatId, c.total, c.unread, c.newest.id]), [
      ["oc_1", 3, 1, "main:oc_1:om_9"],
      ["oc_2", 1, 1, "main:oc_2:om_3"],
    ]);
    assert.equal(s.records.findByMessageId("main", "main:oc_1:om_10")?.id, "main:oc_1:om_9");
  }));

Deno.test("RecordStore hides hidden records from every listing", () =>
  withStore((s) => {
    s.records.insert(msg(1, { hidden: true }));
    assert.deepEqual(s.records.listChat("main", "oc_1", null), []);
    assert.deepEqual(s.records.conversations("main"), []);
  }));

Deno.test("ContactStore.upsertSender() sets chat_id only when unset and put() replaces the entry", () =>
  withStore((s) => {
    s.contacts.upsertSender("main", "ou_a", "oc_1");
    s.contacts.upsertSender("main", "ou_a", "oc_2");
    assert.deepEqual(s.contacts.list("main"), { ou_a: { chat_id: "oc_1" } });
    s.contacts.put("main", "ou_a", { alias: "ann", name: "Ann", chat_id: "" });
    assert.deepEqual(s.contacts.list("main"), { ou_a: { alias: "ann", name: "Ann", chat_id: "" } });
    assert.equal(s.contacts.displayName("main", "ou_a"), "Ann");
    assert.deepEqual(s.contacts.removeAlias("main", "ann"), ["ou_a"]);
    assert.equal(s.contacts.count("main"), 0);
  }));

Deno.test("TypingStore keeps one entry per chat and hands it back once", () =>
  withStore((s) => {
    const e = {
      account: "main",
      chatId: "oc_1",
      messageId: "om_1",
      reactionId: "r1",
      receiveId: "ou_a",
      receiveIdType: "open_id",
    };
    assert.equal(s.typing.put(e), true);
    assert.equal(s.typing.put({ ...e, reactionId: "r2" }), false);
    assert.equal(s.typing.takeByTarget("main", "ou_a", "open_id")[0]?.reactionId, "r1");
    assert.equal(s.typing.take("main", "oc_1"), null);
  }));

Deno.test("Searcher finds incoming records newest first, case-insensitively, with contact names", () =>
  withStore(async (s) => {
    for (let i = 1; i <= 5; i++) s.records.insert(msg(i));
    s.contacts.put("main", "ou_a", { alias: "ann", name: "Annabel" });
    const out = await s.searcher.search({ account: "main", chatId: null, pattern: "HELLO [24]" });
    assert.deepEqual(out.records.map((r) => r.id), ["main:oc_1:om_4", "main:oc_1:om_2"]);
    assert.equal(out.total, 2);
    const byName = await s.searcher.search({
      account: "main",
      chatId: "oc_1",
      pattern: "annabel",
      cap: 2,
    });
    assert.equal(byName.total, 5);
    assert.equal(byName.records.length, 2);
  }));

Deno.test("Searcher stops a pathological regex at its budget without stalling the event loop", () =>
  withStore(async (s) => {
    s.records.insert(
      msg(1, {
        record: incomingRecord("om_1", { id: "main:oc_1:om_1", text: "a".repeat(40) + "!" }),
      }),
    );
    const clock = new ManualClock();
    const { Searcher } = await import("./search.ts");
    const searcher = new Searcher(s.path, clock);
    let ticks = 0;
    const pending = searcher.search({
      account: "main",
      chatId: null,
      pattern: "(a+)+b",
      budgetMs: 50,
    });
    // The main loop keeps running while the worker is stuck in the regex; the
    // budget starts once the worker has begun scanning (it sleeps on the clock).
    while (!clock.pendingDelays().includes(50)) await new Promise((r) => setTimeout(r, 1));
    ticks++;
    clock.advance(50);
    const out = await pending;
    assert.equal(ticks, 1);
    assert.equal(out.timedOut, true);
    assert.deepEqual(out.records, []);
    // A new search after the kill works again.
    const ok = await searcher.search({ account: "main", chatId: null, pattern: "a{40}" });
    assert.equal(ok.total, 1);
    searcher.close();
  }));

Deno.test("lockWorkdir() refuses a second holder and names the first", async () => {
  const dir = await Deno.makeTempDir();
  const first = lockWorkdir(dir);
  assert.throws(
    () => lockWorkdir(dir),
    new RegExp(`already runs on this workdir .*pid ${Deno.pid}`),
  );
  first.release();
  lockWorkdir(dir).release();
  await Deno.remove(dir, { recursive: true });
});

Deno.test("RecordStore.chatOfFeishuMessage() finds the chat of a stored message and nothing for events", () =>
  withStore((s) => {
    s.records.insert(msg(1, {
      record: incomingRecord("om_1", { id: "main:oc_1:om_1", chat_type: "group", text: "" }),
    }));
    s.records.insert({
      ...msg(2, { kind: "event", chatId: "events", id: "main:events:e2" }),
      feishuMessageId: "om_events_only",
    });
    assert.deepEqual(s.records.chatOfFeishuMessage("main", "om_1"), {
      chatId: "oc_1",
      chatType: "group",
      threadId: null,
    });
    assert.equal(s.records.chatOfFeishuMessage("main", "om_events_only"), null);
    assert.equal(s.records.chatOfFeishuMessage("other", "om_1"), null);
  }));

Deno.test("RecordStore.sentMessage() finds a sent message (hidden too) and says whether it answered a local command", () =>
  withStore((s) => {
    const sent = (n: number, extra: Record<string, unknown>, over: Partial<RecordInput> = {}) =>
      s.records.insert(msg(n, {
        direction: "outgoing",
        kind: "sent",
        record: sentRecordOf(`main:oc_1:om_${n}`, extra),
        ...over,
      } as Partial<RecordInput>));
    sent(1, { local_command: true }, { hidden: true, threadId: "omt_1" });
    sent(2, {});
    s.records.insert(msg(3));
    assert.deepEqual(s.records.sentMessage("main", "om_1"), {
      chatId: "oc_1",
      threadId: "omt_1",
      localCommand: true,
    });
    assert.deepEqual(s.records.sentMessage("main", "om_2"), {
      chatId: "oc_1",
      threadId: null,
      localCommand: false,
    });
    assert.equal(s.records.sentMessage("main", "om_3"), null, "a received message");
    assert.equal(s.records.sentMessage("other", "om_1"), null);
  }));

Deno.test("RecordStore.activeThreads() lists a chat's threads active since a time, most recent first, capped", () =>
  withStore((s) => {
    s.records.insert(msg(1, { threadId: "omt_old" }));
    s.records.insert(msg(2, { threadId: "omt_a" }));
    s.records.insert(msg(3, { threadId: "omt_b" }));
    s.records.insert(msg(4, { threadId: "omt_a" }));
    s.records.insert(msg(5));
    s.records.insert(msg(6, { threadId: "omt_other_chat", chatId: "oc_2", id: "main:oc_2:om_6" }));
    assert.deepEqual(s.records.activeThreads("main", "oc_1", 1500, 10), ["omt_a", "omt_b"]);
    assert.deepEqual(s.records.activeThreads("main", "oc_1", 0, 1), ["omt_a"]);
  }));

Deno.test("TaskCardStore: activity is kept per binding, pruned by age, and a binding can be dropped", async () => {
  const dir = await Deno.makeTempDir();
  const clock = new ManualClock(1_000);
  const store = openStore(dir, clock);
  try {
    const a = { account: "main", chatId: "oc_a", threadId: null };
    const b = { account: "main", chatId: "oc_b", threadId: "omt_1" };
    store.taskCards.set(a, "main:oc_a:om_1");
    clock.advance(1_000);
    store.taskCards.set(b, "main:oc_b:om_2");
    assert.deepEqual(store.taskCards.routes().map((r) => [r.key, r.activeAt]), [
      ["main:oc_a", 1_000],
      ["main:oc_b:omt_1", 2_000],
    ]);
    // A replacement card is not activity; a touch is, and never moves time back.
    clock.advance(5_000);
    store.taskCards.set(a, "main:oc_a:om_3");
    store.taskCards.touch(b, 6_500);
    store.taskCards.touch(b, 3_000);
    const active = Object.fromEntries(store.taskCards.routes().map((r) => [r.key, r.activeAt]));
    assert.deepEqual(active, { "main:oc_a": 1_000, "main:oc_b:omt_1": 6_500 });
    assert.deepEqual(store.taskCards.prune(1_000), []);
    assert.deepEqual(store.taskCards.prune(1_001), [
      { key: "main:oc_a", residentId: "main:oc_a:om_3" },
    ]);
    assert.equal(store.taskCards.get(a).state, "none");
    assert.equal(store.taskCards.delete(b), true);
    assert.equal(store.taskCards.delete(b), false);
    assert.deepEqual(store.taskCards.routes(), []);
  } finally {
    store.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("TaskCardStore: a binding stored before activity was kept is aged by its last update", async () => {
  const dir = await Deno.makeTempDir();
  const store = openStore(dir, new ManualClock(0));
  try {
    store.db.prepare(
      `INSERT INTO task_cards (route, account, chat_id, thread_id, resident_id, updated_at)
       VALUES ('main:oc_old', 'main', 'oc_old', NULL, 'main:oc_old:om_1', 500)`,
    ).run();
    assert.equal(store.taskCards.routes()[0]?.activeAt, 500);
    store.taskCards.touch({ account: "main", chatId: "oc_old", threadId: null }, 400);
    assert.equal(store.taskCards.routes()[0]?.activeAt, 500);
    assert.deepEqual(store.taskCards.prune(501), [
      { key: "main:oc_old", residentId: "main:oc_old:om_1" },
    ]);
  } finally {
    store.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("Store.transaction() rethrows the statement's error when SQLite already rolled the transaction back", () =>
  withStore((s) => {
    // An OR ROLLBACK conflict ends the transaction inside SQLite, as SQLITE_FULL
    // does; our ROLLBACK then has nothing to roll back.
    assert.throws(
      () =>
        s.transaction(() => {
          s.records.insert(msg(1));
          s.db.exec("INSERT OR ROLLBACK INTO meta (key, value) VALUES ('app', 'other')");
        }),
      /UNIQUE constraint failed/,
    );
    assert.equal(s.records.get("main", msg(1).id), null);
    assert.equal(s.transaction(() => s.records.insert(msg(2))), true);
  }));

Deno.test("RecordStore.window() is the chat's last n, or the n that end with an older current record", () =>
  withStore((s) => {
    for (let n = 1; n <= 5; n++) s.records.insert(msg(n));
    s.records.insert(msg(9, { createTime: 1500 })); // arrives last, between 1 and 2
    const ids = (rs: { id: string }[]) => rs.map((r) => r.id.split(":").at(-1));
    assert.deepEqual(ids(s.records.window("main", "oc_1", 3)), ["om_3", "om_4", "om_5"]);
    assert.deepEqual(ids(s.records.window("main", "oc_1", 3, "main:oc_1:om_4")), [
      "om_3",
      "om_4",
      "om_5",
    ]);
    assert.deepEqual(ids(s.records.window("main", "oc_1", 3, "main:oc_1:om_9")), [
      "om_1",
      "om_9",
    ]);
    assert.deepEqual(ids(s.records.window("main", "oc_1", 2, "main:oc_1:om_2")), ["om_9", "om_2"]);
  }));

Deno.test("RecordStore.markRecalled() rewrites the record, its columns and the search index; answeredAfter() sees a later send", () =>
  withStore(async (s) => {
    s.records.insert(msg(1));
    s.records.insert(msg(2));
    const stored = s.records.get("main", "main:oc_1:om_1")!;
    assert.equal(s.records.answeredAfter("main", stored), false);
    assert.equal(
      (await s.searcher.search({ account: "main", chatId: null, pattern: "hello 1" })).total,
      1,
    );
    const record = {
      ...incomingRecord("om_1", { id: stored.id, chat_id: "oc_1", text: "[recalled]" }),
      recalled: { at: "2026-08-03T09:15:00Z", by: "message_owner", removed: true },
    };
    s.records.insert(msg(4, {
      record: incomingRecord("om_4", {
        id: "main:oc_1:om_4",
        chat_id: "oc_1",
        reply_to: stored.id,
        reply_to_message: { id: stored.id, source: "store", text: "hello 1" },
      }),
    }));
    const change = { record, at: 5, by: "message_owner", quote: "[recalled]" };
    assert.equal(s.records.markRecalled("main", stored.id, "oc_1", change), true);
    assert.equal(s.records.markRecalled("main", "main:oc_1:om_9", "oc_1", change), false);
    const reply = s.records.get("main", "main:oc_1:om_4")!;
    assert.equal(reply.kind === "message" && reply.record.reply_to_message?.text, "[recalled]");
    assert.equal(
      (await s.searcher.search({ account: "main", chatId: null, pattern: "hello 1" })).total,
      0,
    );
    assert.equal(
      (await s.searcher.search({ account: "main", chatId: null, pattern: "hello 2" })).total,
      1,
    );
    const row = s.db.prepare("SELECT recalled_at, recalled_by FROM records WHERE id = ?").get(
      stored.id,
    );
    assert.deepEqual({ ...row }, { recalled_at: 5, recalled_by: "message_owner" });
    assert.equal(s.records.get("main", stored.id)?.record.text, "[recalled]");
    s.records.insert(msg(3, { direction: "outgoing", kind: "sent" }));
    assert.equal(s.records.answeredAfter("main", stored), true);
  }));

Deno.test("GoneChatStore marks, reads, counts and lifts a chat", () =>
  withStore((s) => {
    assert.equal(s.goneChats.get("main", "oc_1"), null);
    s.goneChats.mark("main", { chatId: "oc_1", reason: "dissolved", at: 7 });
    s.goneChats.mark("other", { chatId: "oc_1", reason: "bot_removed", at: 8 });
    assert.deepEqual(s.goneChats.get("main", "oc_1"), {
      chatId: "oc_1",
      reason: "dissolved",
      at: 7,
    });
    assert.equal(s.goneChats.count("main"), 1);
    assert.equal(s.goneChats.lift("main", "oc_1"), true);
    assert.equal(s.goneChats.lift("main", "oc_1"), false);
    assert.equal(s.goneChats.get("other", "oc_1")?.reason, "bot_removed");
  }));
