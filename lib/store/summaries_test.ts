import assert from "node:assert/strict";
import fc from "fast-check";
import { systemClock } from "../core/mod.ts";
import { storeBefore, withStore } from "./testdata/stores.ts";
import { incomingRecord, sentRecordOf } from "./testdata/records.ts";
import { MIGRATIONS } from "./migrations.ts";
import { openStore, type Store } from "./mod.ts";
import type { RecordInput } from "./records.ts";

// What the summaries replace: the scans `check` and backfill used to run over
// every record. They stay here as the oracle the maintained tables must equal.
function scannedConversations(store: Store, account: string) {
  return store.db.prepare(
    `WITH ranked AS (
       SELECT chat_id, id, ROW_NUMBER() OVER (PARTITION BY chat_id ORDER BY create_time DESC, seq DESC) AS rn,
         COUNT(*) OVER (PARTITION BY chat_id) AS total,
         SUM(CASE WHEN direction = 'incoming' AND is_read = 0 THEN 1 ELSE 0 END)
           OVER (PARTITION BY chat_id) AS unread, create_time, seq
       FROM records WHERE account = ? AND hidden = 0)
     SELECT * FROM ranked WHERE rn = 1 ORDER BY create_time DESC, seq DESC`,
  ).all(account).map((r) => ({
    chatId: String(r.chat_id),
    total: Number(r.total),
    unread: Number(r.unread),
    newest: String(r.id),
  }));
}

function scannedActiveChats(store: Store, account: string, upToSeq: number) {
  return store.db.prepare(
    `SELECT chat_id, MAX(create_time) AS latest FROM records
     WHERE account = ? AND direction = 'incoming' AND kind = 'message' AND hidden = 0
       AND seq <= ?
     GROUP BY chat_id ORDER BY latest DESC, chat_id`,
  ).all(account, upToSeq).map((r) => ({ chatId: String(r.chat_id), latest: Number(r.latest) }));
}

const summaries = (store: Store, account: string) =>
  store.records.conversations(account).map((c) => ({
    chatId: c.chatId,
    total: c.total,
    unread: c.unread,
    newest: c.newest.id,
  }));

type Op =
  | { op: "in" | "out" | "hidden"; chat: number; time: number; account: number }
  | { op: "read"; pick: number; count: number }
  | { op: "move"; pick: number; chat: number }
  | { op: "hide" | "show" | "delete" | "retime"; pick: number; time: number };

const op = fc.oneof(
  {
    arbitrary: fc.record({
      op: fc.constantFrom("in" as const, "out" as const, "hidden" as const),
      chat: fc.nat(4),
      time: fc.nat(20),
      account: fc.nat(1),
    }),
    weight: 6,
  },
  {
    arbitrary: fc.record({ op: fc.constant("read" as const), pick: fc.nat(), count: fc.nat(3) }),
    weight: 1,
  },
  {
    arbitrary: fc.record({ op: fc.constant("move" as const), pick: fc.nat(), chat: fc.nat(4) }),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      op: fc.constantFrom("hide" as const, "show" as const, "delete" as const, "retime" as const),
      pick: fc.nat(),
      time: fc.nat(20),
    }),
    weight: 1,
  },
);

function apply(store: Store, o: Op, n: number): void {
  const ids = store.db.prepare("SELECT id FROM records ORDER BY seq").all().map((r) =>
    String(r.id)
  );
  const picked = ids.length ? ids[("pick" in o ? o.pick : 0) % ids.length]! : null;
  if (o.op === "in" || o.op === "out" || o.op === "hidden") {
    const account = o.account ? "side" : "main";
    const chat = `oc_${o.chat}`;
    const id = `${account}:${chat}:om_${n}`;
    const input: RecordInput = o.op === "in"
      ? {
        account,
        id,
        chatId: chat,
        direction: "incoming",
        kind: "message",
        createTime: o.time,
        fromOpenId: "ou_a",
        record: incomingRecord(`om_${n}`, {
          id,
          chat_id: chat,
          chat_type: o.chat ? "group" : "p2p",
        }),
      }
      : {
        account,
        id,
        chatId: chat,
        direction: "outgoing",
        kind: "sent",
        createTime: o.time,
        hidden: o.op === "hidden",
        record: sentRecordOf(id),
      };
    store.records.insert(input);
  } else if (picked === null) return;
  else if (o.op === "read") {
    store.records.markRead(
      picked.split(":")[0]!,
      ids.slice(o.pick % ids.length).slice(0, o.count + 1),
    );
  } else if (o.op === "move") {
    store.db.prepare("UPDATE records SET chat_id = ? WHERE id = ?").run(`oc_${o.chat}`, picked);
  } else if (o.op === "hide" || o.op === "show") {
    store.db.prepare("UPDATE records SET hidden = ? WHERE id = ?").run(
      o.op === "hide" ? 1 : 0,
      picked,
    );
  } else if (o.op === "retime") {
    store.db.prepare("UPDATE records SET create_time = ? WHERE id = ?").run(o.time, picked);
  } else store.db.prepare("DELETE FROM records WHERE id = ?").run(picked);
}

Deno.test("chat summaries equal a scan of the records after any sequence of writes", () =>
  withStore((store) => {
    fc.assert(
      fc.property(fc.array(op as fc.Arbitrary<Op>, { maxLength: 40 }), (ops) => {
        store.db.exec("DELETE FROM records");
        ops.forEach((o, n) => apply(store, o, n));
        for (const account of ["main", "side"]) {
          assert.deepEqual(summaries(store, account), scannedConversations(store, account));
          assert.deepEqual(
            store.records.conversations(account, { unreadOnly: true }).map((c) => c.chatId),
            scannedConversations(store, account).filter((c) => c.unread > 0).map((c) => c.chatId),
          );
          const last = store.records.lastSeq();
          for (const upToSeq of [last, Math.floor(last / 2)]) {
            for (const limit of [1, 2, 50]) {
              const want = scannedActiveChats(store, account, upToSeq);
              const got = store.records.activeChats(account, { upToSeq, limit });
              // Ties on time may come in either order; the times and the set must agree.
              assert.deepEqual(got.map((c) => c.latest), want.slice(0, limit).map((c) => c.latest));
              for (const c of got) {
                assert.ok(want.some((w) => w.chatId === c.chatId && w.latest === c.latest));
              }
            }
          }
        }
        assert.equal(
          store.db.prepare("SELECT COUNT(*) AS n FROM chat_summaries").get()?.n,
          store.db.prepare(
            "SELECT COUNT(DISTINCT account || ' ' || chat_id) AS n FROM records WHERE hidden = 0",
          ).get()?.n,
        );
      }),
      { numRuns: 300 },
    );
  }));

Deno.test("p2pChatOf() finds the DM a person last wrote from, not a group", () =>
  withStore((store) => {
    const add = (n: number, chat: string, type: "p2p" | "group") => {
      const id = `main:${chat}:om_${n}`;
      store.records.insert({
        account: "main",
        id,
        chatId: chat,
        direction: "incoming",
        kind: "message",
        createTime: n,
        fromOpenId: "ou_a",
        record: incomingRecord(`om_${n}`, { id, chat_id: chat, chat_type: type }),
      });
    };
    assert.equal(store.records.p2pChatOf("main", "ou_a"), null);
    add(1, "oc_group", "group");
    assert.equal(store.records.p2pChatOf("main", "ou_a"), null);
    add(2, "oc_dm", "p2p");
    add(3, "oc_group", "group");
    assert.equal(store.records.p2pChatOf("main", "ou_a"), "oc_dm");
    assert.equal(store.records.p2pChatOf("main", "ou_b"), null);
  }));

Deno.test("the summaries migration builds summaries and the text index from the records already stored", async () => {
  const at = MIGRATIONS.findIndex((m) => m.name.startsWith("per-chat summaries"));
  assert.ok(at > 0);
  const dir = await Deno.makeTempDir();
  try {
    const old = await storeBefore(dir, at);
    const insert = old.prepare(
      `INSERT INTO records (account, id, chat_id, direction, kind, create_time, is_read, hidden,
         search_text, record, updated_at) VALUES ('main', ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)`,
    );
    const rec = (type: string) => JSON.stringify({ chat_type: type });
    insert.run("a1", "oc_a", "incoming", "message", 10, 1, 0, "ou_x  first needle", rec("p2p"));
    insert.run("a2", "oc_a", "incoming", "message", 30, 0, 0, "ou_x  second", rec("p2p"));
    insert.run("a3", "oc_a", "outgoing", "sent", 40, 0, 0, "me", "{}");
    insert.run("b1", "oc_b", "incoming", "message", 20, 0, 0, "ou_y  NEEDLE in b", rec("group"));
    insert.run("b2", "oc_b", "outgoing", "sent", 50, 0, 1, "card", "{}");
    old.close();

    const store = openStore(dir, systemClock);
    try {
      assert.deepEqual(summaries(store, "main"), [
        { chatId: "oc_a", total: 3, unread: 1, newest: "a3" },
        { chatId: "oc_b", total: 1, unread: 1, newest: "b1" },
      ]);
      assert.deepEqual(
        store.records.activeChats("main").map((c) => [c.chatId, c.chatType, c.latest]),
        [["oc_a", "p2p", 30], ["oc_b", "group", 20]],
      );
      const found = await store.searcher.search({
        account: "main",
        chatId: null,
        pattern: "needle",
      });
      assert.equal(found.total, 2);
    } finally {
      store.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
