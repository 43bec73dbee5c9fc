import assert from "node:assert/strict";
import { createLogger, ManualClock } from "../core/mod.ts";
import { createNotifier } from "../notify/mod.ts";
import { openStore } from "../store/mod.ts";
import { incomingRecord, sentRecordOf } from "../store/testdata/records.ts";
import { createConversationLog, type Recorded } from "./mod.ts";

const T0 = Date.parse("2026-08-03T09:14:00Z");
const alice = { alias: "main", names: { known: () => null } };

/** A log over a real store in a temp workdir, with the channel pushes and listener calls it made. */
async function rig() {
  const workdir = await Deno.makeTempDir({ prefix: "conversation-log-" });
  const clock = new ManualClock(T0);
  const log = createLogger({ sink: () => {} });
  const store = openStore(workdir, clock);
  const pushes: string[] = [];
  const notifier = createNotifier({
    liccDir: null,
    claudeChannel: true,
    push: {
      notifyChannel: (p) => Promise.resolve(void pushes.push(p.meta.message_id ?? "")),
      notifyResourceUpdated: () => Promise.resolve(),
    },
    clock,
    log,
  });
  const conversation = createConversationLog({ store, notifier, clock, log });
  const heard: Recorded[] = [];
  conversation.onRecorded((r) => heard.push(r));
  return {
    store,
    conversation,
    pushes,
    heard,
    async [Symbol.asyncDispose]() {
      store.close();
      await Deno.remove(workdir, { recursive: true });
    },
  };
}

Deno.test("createConversationLog() records a message once, wakes the agent once and tells its listeners with the route", async () => {
  await using r = await rig();
  const msg = incomingRecord("om_1", { chat_id: "oc_team", thread_id: "omt_1" });
  const first = await r.conversation.recordAndWake(alice, { kind: "message", record: msg }, {
    eventId: "ev_1",
  });
  const again = await r.conversation.recordAndWake(alice, { kind: "message", record: msg });
  assert.deepEqual([first, again], ["recorded", "replayed"]);
  assert.equal(r.pushes.length, 1);
  const stored = r.store.records.get("main", msg.id);
  assert.equal(stored?.kind, "message");
  assert.equal(stored?.createTime, Date.parse(msg.date));
  assert.equal(r.store.records.isNotified("main", msg.id), true);
  assert.deepEqual(r.heard.map((h) => [h.kind, h.woke, h.route, h.messageId]), [
    ["message", true, { account: "main", chatId: "oc_team", threadId: "omt_1" }, "om_1"],
  ]);
});

Deno.test("createConversationLog() finishes a wake a crash cut off, from the stored record", async () => {
  await using r = await rig();
  const msg = incomingRecord("om_2", { text: "as stored" });
  // The record was written, the notification never went out.
  assert.equal(r.conversation.record("main", { kind: "message", record: msg }), true);
  assert.equal(r.store.records.isNotified("main", msg.id), false);
  const outcome = await r.conversation.recordAndWake(alice, {
    kind: "message",
    record: { ...msg, text: "a later normalisation" },
  });
  assert.equal(outcome, "replayed");
  assert.equal(r.pushes.length, 1);
  const woke = r.heard.filter((h) => h.woke);
  assert.equal(woke.length, 1);
  assert.equal(woke[0]!.kind === "message" && woke[0]!.record.text, "as stored");
});

Deno.test("createConversationLog() keeps a sent record as it is, except a partial one its replay completes", async () => {
  await using r = await rig();
  const id = "main:oc_chat:om_s1";
  const partial = sentRecordOf(id, { status: "partial" });
  const complete = sentRecordOf(id, {
    status: "sent",
    message_ids: [id, "main:oc_chat:om_s2"],
    feishu_message_ids: ["om_s1", "om_s2"],
  });
  assert.equal(r.conversation.record("main", { kind: "sent", record: partial }), true);
  assert.equal(r.conversation.record("main", { kind: "sent", record: complete }), true);
  assert.equal(r.conversation.record("main", { kind: "sent", record: partial }), false);
  assert.equal(r.store.records.get("main", id)?.status, "sent");
  assert.equal(r.store.records.findByMessageId("main", "main:oc_chat:om_s2")?.id, id);
  // Listeners hear each write, with the last chunk as the chat's newest message.
  assert.deepEqual(r.heard.map((h) => [h.woke, h.messageId]), [[false, "om_s1"], [false, "om_s2"]]);
});

Deno.test("createConversationLog() hides the bridge's own cards from every action but tells its listeners", async () => {
  await using r = await rig();
  const card = sentRecordOf("main:oc_chat:om_card", { task_card: true });
  const answer = sentRecordOf("main:oc_chat:om_answer", { local_command: true });
  r.conversation.record("main", { kind: "sent", record: card });
  r.conversation.record("main", { kind: "sent", record: answer });
  assert.deepEqual(r.store.records.listChat("main", "oc_chat", null), []);
  assert.deepEqual(r.heard.map((h) => h.messageId), ["om_card", "om_answer"]);
});

Deno.test("createConversationLog() goes on when a listener throws: the record stays and the next listener hears it", async () => {
  await using r = await rig();
  const after: string[] = [];
  r.conversation.onRecorded(() => {
    throw new Error("listener bug");
  });
  r.conversation.onRecorded((h) => after.push(h.record.id));
  const msg = incomingRecord("om_3");
  assert.equal(
    await r.conversation.recordAndWake(alice, { kind: "message", record: msg }),
    "recorded",
  );
  assert.deepEqual(after, [msg.id]);
  assert.equal(r.store.records.isNotified("main", msg.id), true);
});

Deno.test("createConversationLog() holds a record when asked: stored and handled, nobody woken, not even by a replay", async () => {
  await using r = await rig();
  const msg = incomingRecord("om_held", { chat_id: "oc_team" });
  const entry = { kind: "message" as const, record: msg };
  const first = await r.conversation.recordAndWake(alice, entry, {}, { hold: true });
  const replay = await r.conversation.recordAndWake(alice, entry);
  assert.deepEqual([first, replay], ["recorded", "replayed"]);
  assert.equal(r.pushes.length, 0);
  assert.equal(r.store.records.get("main", msg.id)?.kind, "message");
  assert.equal(r.store.records.isNotified("main", msg.id), true);
  assert.deepEqual(r.heard.map((h) => [h.kind, h.woke]), [["message", false]]);
});
