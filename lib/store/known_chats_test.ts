import assert from "node:assert/strict";
import { withStore } from "./testdata/stores.ts";
import { incomingRecord, sentRecordOf } from "./testdata/records.ts";
import type { Store } from "./mod.ts";
import type { RecordInput } from "./records.ts";

function message(store: Store, chatId: string, n: number): void {
  const id = `main:${chatId}:om_${n}`;
  store.records.insert({
    account: "main",
    id,
    chatId,
    feishuMessageId: `om_${n}`,
    direction: "incoming",
    kind: "message",
    createTime: 1000 * n,
    record: incomingRecord(`om_${n}`, { id, chat_id: chatId }),
  } as RecordInput);
}

function event(store: Store, n: number, type: string, sourceChatId: string, atMs: number): void {
  const id = `main:events:ev_${n}`;
  store.records.insert({
    account: "main",
    id,
    chatId: "events",
    feishuEventId: `ev_${n}`,
    direction: "incoming",
    kind: "event",
    createTime: atMs,
    record: {
      id,
      feishu_event_id: `ev_${n}`,
      chat_id: "events",
      chat_type: "synthetic",
      thread_id: null,
      message_type: "event",
      event_type: type,
      from_open_id: "ou_a",
      from_name: null,
      text: `[${type}]`,
      date: new Date(atMs).toISOString(),
      synthetic: true,
      source_chat_id: sourceChatId,
      event: { chat_id: sourceChatId },
      feishu: {},
    },
  } as RecordInput);
}

Deno.test("hadIncoming() is true only for a chat with an incoming message stored up to the cut", () =>
  withStore((store) => {
    assert.equal(store.records.hadIncoming("main", "oc_a"), false);
    store.records.insert({
      account: "main",
      id: "main:oc_a:om_sent",
      chatId: "oc_a",
      feishuMessageId: "om_sent",
      direction: "outgoing",
      kind: "sent",
      createTime: 500,
      record: sentRecordOf("main:oc_a:om_sent"),
    } as RecordInput);
    // The bot's own message does not make a chat heard from.
    assert.equal(store.records.hadIncoming("main", "oc_a"), false);
    message(store, "oc_a", 1);
    const cut = store.records.lastSeq();
    message(store, "oc_b", 2);
    assert.equal(store.records.hadIncoming("main", "oc_a", cut), true);
    assert.equal(store.records.hadIncoming("main", "oc_b"), true);
    assert.equal(store.records.hadIncoming("main", "oc_b", cut), false);
    assert.equal(store.records.hadIncoming("other", "oc_a"), false);
  }));

Deno.test("enteredChats() lists DMs people opened without a message stored before the cut, newest first, through its partial index", () =>
  withStore((store) => {
    event(store, 1, "p2p_entered", "oc_old", 1_000);
    event(store, 2, "p2p_entered", "oc_x", 5_000);
    event(store, 3, "reaction", "oc_y", 6_000);
    event(store, 4, "p2p_entered", "oc_z", 7_000);
    event(store, 5, "p2p_entered", "oc_x", 8_000);
    message(store, "oc_z", 9);
    const cut = store.records.lastSeq();
    event(store, 6, "p2p_entered", "oc_w", 10_000);
    message(store, "oc_w", 11);
    const all = store.records.enteredChats("main", { sinceMs: 2_000, limit: 10 });
    assert.deepEqual(all, [{ chatId: "oc_x", enteredAt: 8_000 }]);
    // At the cut oc_w had no message yet (its first came after): it counts.
    const atCut = store.records.enteredChats("main", { sinceMs: 2_000, limit: 10, upToSeq: cut });
    assert.deepEqual(atCut.map((c) => c.chatId), ["oc_w", "oc_x"]);
    const before = store.records.enteredChats("main", {
      sinceMs: 2_000,
      limit: 10,
      upToSeq: cut - 1,
    });
    assert.deepEqual(before.map((c) => c.chatId), ["oc_w", "oc_x", "oc_z"]);
    assert.deepEqual(
      store.records.enteredChats("main", { sinceMs: 0, limit: 1 }).map((c) => c.chatId),
      ["oc_x"],
    );
    const plan = store.db.prepare(
      `EXPLAIN QUERY PLAN SELECT 1 FROM records e WHERE e.account = 'main' AND e.kind = 'event'
         AND json_extract(e.record, '$.event_type') = 'p2p_entered' AND e.create_time >= 0`,
    ).all().map((r) => String(r.detail)).join("\n");
    assert.match(plan, /records_p2p_entered/);
  }));
