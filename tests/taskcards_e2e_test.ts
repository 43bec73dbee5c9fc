/**
 * End to end, resident Task Cards: the real server over stdio against the
 * emulator, with an agent events log (`logs/events.jsonl`) the test appends to.
 * A message that reaches the agent creates its route's card; events log rows
 * edit it in place during the turn; when the turn ends the card moves once
 * below what was posted under it; a restart edits the bound card in place;
 * topics keep their own card (agent scope: one frame everywhere); one chat
 * refusing every card write leaves the other's card alive; a burst of rows
 * costs a handful of edits and ends on the final state; the programmable
 * slot, `/taskcard` (off deletes the cards, on brings them back), the done
 * reaction and unreadable bindings. Per-conversation scope and the write
 * budget have their own suite (taskcards_scope_e2e_test.ts).
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { DEFAULT_IDS as D, startEmulator } from "../lib/emulator/mod.ts";
import type { StoredMessage } from "../lib/emulator/world.ts";
import { until } from "./_inbound.ts";
import {
  agentDir,
  agentState,
  appendEvents,
  assertSent,
  cardEdits,
  cards,
  cardShowing,
  diary,
  frameOf,
  lastOf,
  type Rec,
  start,
  storeRows,
  taskStatus,
  toolCall,
} from "./_taskcards.ts";

Deno.test("a DM's card: created below the first message, edited in place during the turn, moved once below the answer when the turn ends, hidden from read", async () => {
  await using emu = await startEmulator();
  const workdir = await agentDir();
  const bridge = await start(emu, workdir);
  try {
    await emu.ws.whenReady();
    const first = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "build it" });
    const [push] = await bridge.channel.atLeast(1);
    const card = await cardShowing(emu, D.aliceP2p, (f) => f.startsWith("📋 ACTIVITIES"));
    const wire = JSON.parse(card.content);
    assert.equal(wire.schema, "2.0");
    assert.equal(wire.config.update_multi, true);
    assert.equal(
      lastOf(emu, D.aliceP2p)?.messageId,
      card.messageId,
      "the card is the last message",
    );
    assert.ok(card.seq > emu.world.messages.get(first.messageId!)!.seq);

    await agentState(workdir, "active");
    await appendEvents(
      workdir,
      diary("public response"),
      toolCall("bash", "build", "call-1", { action: "run", command: "rm -rf /secret-path" }),
    );
    const edited = await cardShowing(emu, D.aliceP2p, (f) => f.includes("• bash.run: build"));
    assert.equal(edited.messageId, card.messageId, "edited in place");
    assert.ok(!frameOf(edited).includes("secret-path"), "private arguments never reach the card");
    assert.ok(cardEdits(emu, card.messageId).length >= 1);

    const ids = (await bridge.records(D.aliceP2p)).map((r) => r.feishu_message_id);
    assert.ok(!ids.includes(card.messageId), "read never shows the card");

    // The agent answers below the card: during the turn the card stays where it is.
    assertSent(await bridge.call("reply", { message_id: push!.meta.message_id, text: "built" }));
    const answer = lastOf(emu, D.aliceP2p)!;
    await appendEvents(workdir, diary("answered", "call-2"));
    await cardShowing(emu, D.aliceP2p, (f) => f.includes("answered"));
    assert.equal(cards(emu, D.aliceP2p)[0]!.messageId, card.messageId, "not moved mid-turn");
    // The turn ends: the old card goes, a new one comes below the answer.
    await agentState(workdir, "idle");
    const rotated = await emu.waitFor(() => {
      const live = cards(emu, D.aliceP2p);
      return live.length === 1 && live[0]!.messageId !== card.messageId ? live[0] : undefined;
    }, { description: "the rotated card" });
    assert.equal(emu.world.messages.get(card.messageId)?.deleted, true);
    assert.ok(rotated.seq > answer.seq, "below the agent's answer");
    assert.ok(frameOf(rotated).includes("• answered"), "the new card shows the same state");
    const deletes = emu.requests({ path: `/open-apis/im/v1/messages/${card.messageId}` })
      .filter((r) => r.method === "DELETE");
    const sends = emu.requests({ method: "POST", path: "/open-apis/im/v1/messages" })
      .filter((r) => (r.body as Rec)?.msg_type === "interactive");
    assert.equal(deletes.length, 1);
    assert.ok(deletes[0]!.seq < sends.at(-1)!.seq, "old first: the delete came before the send");

    const bound = await until(() => {
      const rows = storeRows(
        workdir,
        "SELECT route, account, chat_id, thread_id, resident_id FROM task_cards",
      );
      const done = rows[0]?.resident_id === `main:${D.aliceP2p}:${rotated.messageId}`;
      return Promise.resolve(done ? rows : null);
    });
    assert.deepEqual(bound, [{
      route: `main:${D.aliceP2p}`,
      account: "main",
      chat_id: D.aliceP2p,
      thread_id: null,
      resident_id: `main:${D.aliceP2p}:${rotated.messageId}`,
    }]);
    const hidden = storeRows(workdir, "SELECT hidden, record FROM records WHERE hidden = 1");
    assert.equal(hidden.length, 2, "both cards were recorded, hidden");
    assert.equal(JSON.parse(String(hidden[0]!.record)).task_card, true);
    const status = await taskStatus(bridge);
    assert.equal(status.routes, 1);
    assert.equal(status.scope, "conversation");
    assert.equal(status.active_routes, 1);
    assert.deepEqual(status.blocked, []);
    assert.equal(status.journal.present, true);
  } finally {
    await bridge.close();
  }
});

Deno.test("after a restart the bound card is edited in place at the next message; rows read at start show nowhere", async () => {
  await using emu = await startEmulator();
  const workdir = await agentDir();
  let bridge = await start(emu, workdir);
  let card: StoredMessage;
  try {
    await emu.ws.whenReady();
    emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "hello" });
    card = await cardShowing(emu, D.aliceP2p, (f) => f.startsWith("📋"));
  } finally {
    await bridge.close();
  }
  // Written while the server was down: no wake is known for it, so it belongs to no one.
  await appendEvents(workdir, diary("while the server was down", "call-8"));
  const sendsBefore = emu.requests({ method: "POST", path: "/open-apis/im/v1/messages" }).length;
  bridge = await start(emu, workdir);
  try {
    await emu.ws.whenReady();
    emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "go on" });
    await bridge.channel.atLeast(1);
    await appendEvents(workdir, diary("after the restart", "call-9"));
    const edited = await cardShowing(emu, D.aliceP2p, (f) => f.includes("after the restart"));
    assert.equal(edited.messageId, card.messageId);
    assert.ok(!frameOf(edited).includes("while the server was down"));
    assert.equal(
      emu.requests({ method: "POST", path: "/open-apis/im/v1/messages" }).length,
      sendsBefore,
      "no new card",
    );
    assert.equal(
      emu.requests({ method: "DELETE", path: `/open-apis/im/v1/messages/${card.messageId}` })
        .length,
      0,
    );
  } finally {
    await bridge.close();
  }
});

Deno.test("scope agent: one frame everywhere; a topic keeps its own card, a reply in the topic; a card deleted by a user is replaced", async () => {
  await using emu = await startEmulator();
  const workdir = await agentDir();
  // The original's behaviour: every card shows all of the agent's work.
  const bridge = await start(emu, workdir, { scope: "agent" });
  try {
    await emu.ws.whenReady();
    const root = emu.userSends({
      user: D.alice.openId,
      chat: D.topics,
      text: "@EmuBot plan the trip",
      mentions: ["bot"],
    });
    await bridge.channel.atLeast(1);
    const rootMsg = emu.world.messages.get(root.messageId!)!;
    const topicCard = await emu.waitFor(() => cards(emu, D.topics, rootMsg.threadId)[0]);
    assert.equal(topicCard.parentId, root.messageId, "a reply to the topic's message");
    const [binding] = await until(() => {
      const rows = storeRows(workdir, "SELECT route, thread_id FROM task_cards");
      return Promise.resolve(rows.length === 1 ? rows : null);
    });
    assert.deepEqual(binding, {
      route: `main:${D.topics}:${rootMsg.threadId}`,
      thread_id: rootMsg.threadId,
    });
    const sent = JSON.parse(
      String(storeRows(workdir, "SELECT record FROM records WHERE hidden = 1")[0]!.record),
    );
    assert.equal(sent.task_card, true);
    assert.equal(sent.thread_id, rootMsg.threadId);
    assert.equal(sent.reply_to, `main:${D.topics}:${root.messageId}`);
    assert.equal(sent.reply_in_thread, true);
    emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "and in the DM" });
    await bridge.channel.atLeast(2);
    const dmCard = await cardShowing(emu, D.aliceP2p, (f) => f.startsWith("📋"));
    await until(async () => (await taskStatus(bridge)).routes === 2, {
      what: "two routes, two cards",
    });

    // Someone deletes the DM's card; the next change brings a new one.
    emu.recall({ messageId: dmCard.messageId });
    await appendEvents(workdir, diary("still going"));
    const again = await cardShowing(emu, D.aliceP2p, (f) => f.includes("still going"));
    assert.notEqual(again.messageId, dmCard.messageId);
    const topicNow = await cardShowing(
      emu,
      D.topics,
      (f) => f.includes("still going"),
      rootMsg.threadId,
    );
    assert.equal(topicNow.messageId, topicCard.messageId, "the topic's card is edited in place");
    const untimed = (m: StoredMessage) => frameOf(m).replace(/\nLast Updated: .*$/, "");
    assert.equal(untimed(topicNow), untimed(again), "the same frame in both conversations");
    assert.equal((await taskStatus(bridge)).scope, "agent");
  } finally {
    await bridge.close();
  }
});

Deno.test("a chat refusing every card write never holds up another chat's card", async () => {
  await using emu = await startEmulator();
  const workdir = await agentDir();
  // Every card write concerning Bob's DM fails; everything else passes.
  const bobs = (r: { path: string; body?: unknown; query: Record<string, unknown> }) => {
    const body = (r.body ?? {}) as Rec;
    if (body.msg_type === "interactive" && body.receive_id === D.bobP2p) return true;
    const id = r.path.split("/")[5];
    return id !== undefined && emu.world.messages.get(id)?.chatId === D.bobP2p &&
      emu.world.messages.get(id)?.msgType === "interactive";
  };
  emu.faults.add({ path: /^\/open-apis\/im\/v1\/messages/, when: bobs, respond: { code: 230099 } });
  const bridge = await start(emu, workdir);
  try {
    await emu.ws.whenReady();
    emu.userSends({ user: D.bob.openId, chat: D.bobP2p, text: "bob first" });
    await bridge.channel.atLeast(1);
    emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "alice second" });
    await bridge.channel.atLeast(2);
    await cardShowing(emu, D.aliceP2p, (f) => f.startsWith("📋"));
    // Both are worked on: the rows name Alice's chat, so they are hers.
    for (let i = 1; i <= 3; i++) {
      const input = { receive_id: D.aliceP2p, receive_id_type: "chat_id" };
      await appendEvents(workdir, toolCall("feishu", `step ${i}`, `call-${i}`, { input }));
      await cardShowing(emu, D.aliceP2p, (f) => f.includes(`step ${i}`));
    }
    assert.deepEqual(cards(emu, D.bobP2p), []);
    const status = await until(async () => {
      const s = await taskStatus(bridge);
      return s.writes.failed >= 1 ? s : null;
    });
    assert.match(status.last_error?.error ?? "", /^Failed to update Feishu Task Card/);
    assert.equal(status.last_error?.route, `main:${D.bobP2p}`);
  } finally {
    await bridge.close();
  }
});

Deno.test("500 rows in 2 s cost a handful of edits and the card ends on the final state", async () => {
  await using emu = await startEmulator();
  const workdir = await agentDir();
  const bridge = await start(emu, workdir);
  try {
    await emu.ws.whenReady();
    emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "go" });
    const card = await cardShowing(emu, D.aliceP2p, (f) => f.startsWith("📋"));
    const before = cardEdits(emu, card.messageId).length;
    const started = Date.now();
    // 25 rounds of 20 rows (a round keeps at most 24), over about two seconds.
    for (let batch = 0; batch < 25; batch++) {
      const rows = Array.from(
        { length: 20 },
        (_, i) => diary(`row ${batch * 20 + i + 1}`, `call-${batch}`),
      );
      await appendEvents(workdir, ...rows);
      await new Promise((r) => setTimeout(r, 80));
    }
    const spread = Date.now() - started;
    const last = await cardShowing(emu, D.aliceP2p, (f) => f.includes("row 500"));
    assert.equal(last.messageId, card.messageId);
    const edits = cardEdits(emu, card.messageId).length - before;
    // One edit per route per second at most, plus the one that brings the final state.
    assert.ok(edits <= Math.ceil(spread / 1000) + 3, `${edits} edits for ${spread} ms of rows`);
    assert.ok(edits >= 1);
  } finally {
    await bridge.close();
  }
});

Deno.test("the programmable slot is composed under the automatic frame and cleared by exact inactive", async () => {
  await using emu = await startEmulator();
  const workdir = await agentDir();
  const bridge = await start(emu, workdir);
  try {
    await emu.ws.whenReady();
    emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "watch this" });
    const card = await cardShowing(emu, D.aliceP2p, (f) => f.startsWith("📋"));
    await Deno.mkdir(join(workdir, "taskcard"));
    await Deno.writeTextFile(join(workdir, "taskcard", "taskcard.md"), "one truthful frame\n");
    await Deno.writeTextFile(join(workdir, "taskcard", "status"), "active");
    const composed = await cardShowing(emu, D.aliceP2p, (f) => f.includes("— TASK CARD —"));
    assert.equal(composed.messageId, card.messageId);
    assert.ok(frameOf(composed).endsWith("— TASK CARD —\none truthful frame\n"));
    assert.ok(frameOf(composed).startsWith("📋 ACTIVITIES"));
    // A status other than the exact word changes nothing; the exact `inactive` clears the slot.
    await Deno.writeTextFile(join(workdir, "taskcard", "status"), "inactive");
    const cleared = await cardShowing(emu, D.aliceP2p, (f) => !f.includes("— TASK CARD —"));
    assert.equal(cleared.messageId, card.messageId);
  } finally {
    await bridge.close();
  }
});

Deno.test("/taskcard 3 shows three rounds, off deletes the card and writes nothing, on brings it back; the done reaction lands on the request", async () => {
  await using emu = await startEmulator();
  const workdir = await agentDir();
  const bridge = await start(emu, workdir);
  try {
    await emu.ws.whenReady();
    const ask = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "long task" });
    const card = await cardShowing(emu, D.aliceP2p, (f) => f.startsWith("📋"));
    await agentState(workdir, "active");
    await appendEvents(
      workdir,
      diary("round one", "r1"),
      diary("round two", "r2"),
      diary("round three", "r3"),
    );
    await cardShowing(emu, D.aliceP2p, (f) => f.includes("round three"));
    await agentState(workdir, "idle");
    await emu.waitFor(() => emu.reactions(ask.messageId!).find((r) => r.emojiType === "DONE"));

    const rows = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "/taskcard 3" });
    await emu.waitFor(() => emu.messages(D.aliceP2p).find((m) => m.parentId === rows.messageId));
    const three = await cardShowing(
      emu,
      D.aliceP2p,
      (f) => f.includes("round one") && f.includes("round two") && f.includes("current: 3"),
    );
    assert.equal(three.messageId, card.messageId, "a command's answer does not move the card");

    const off = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "/taskcard off" });
    await emu.waitFor(() => emu.messages(D.aliceP2p).find((m) => m.parentId === off.messageId));
    const hidden = await until(async () => {
      const s = await taskStatus(bridge);
      return !s.enabled && s.routes === 0 && s.writes.deleted === 1 ? s : null;
    }, { what: "the card deleted and its binding dropped" });
    assert.equal(hidden.writes.failed, 0);
    assert.deepEqual(cards(emu, D.aliceP2p), []);
    assert.equal(emu.world.messages.get(card.messageId)?.deleted, true);
    const writes = emu.requests().filter((r) => r.method !== "GET").length;
    await appendEvents(workdir, diary("hidden round", "r4"));
    await until(async () => (await taskStatus(bridge)).journal.rounds >= 4);
    // One more poll has passed; nothing was written for the hidden round.
    await until(async () => (await taskStatus(bridge)).journal.rounds >= 4);
    assert.equal(emu.requests().filter((r) => r.method !== "GET").length, writes);

    const on = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "/taskcard on" });
    const answer = await emu.waitFor(() =>
      emu.messages(D.aliceP2p).find((m) => m.parentId === on.messageId)
    );
    const back = await cardShowing(emu, D.aliceP2p, (f) => f.includes("round three"));
    assert.ok(back.seq > answer.seq, "the card comes back below the answer");
    assert.ok(!frameOf(back).includes("hidden round"));
    await until(async () => (await taskStatus(bridge)).routes === 1, { what: "bound again" });
  } finally {
    await bridge.close();
  }
});

Deno.test("an unreadable binding blocks that route's card writes and says so in status; no events log, no card", async () => {
  await using emu = await startEmulator();
  const workdir = await agentDir();
  let bridge = await start(emu, workdir);
  try {
    await emu.ws.whenReady();
    emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "first" });
    await cardShowing(emu, D.aliceP2p, (f) => f.startsWith("📋"));
  } finally {
    await bridge.close();
  }
  const db = new DatabaseSync(join(workdir, "feishu", "store.db"));
  db.prepare("UPDATE task_cards SET resident_id = 'not-a-compound-id'").run();
  db.close();
  bridge = await start(emu, workdir);
  try {
    await emu.ws.whenReady();
    const before = emu.requests({ method: "POST", path: "/open-apis/im/v1/messages" }).length;
    emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "second" });
    await bridge.channel.atLeast(1);
    const status = await until(async () => {
      const s = await taskStatus(bridge);
      return s.blocked.length === 1 && s.last_error ? s : null;
    });
    assert.equal(status.blocked[0]?.route, `main:${D.aliceP2p}`);
    assert.match(status.blocked[0]?.reason ?? "", /compound id/);
    await appendEvents(workdir, diary("more"));
    await until(async () => (await taskStatus(bridge)).journal.rounds >= 1);
    assert.equal(
      emu.requests({ method: "POST", path: "/open-apis/im/v1/messages" }).length,
      before,
      "nothing sent to a route whose binding does not read back",
    );
  } finally {
    await bridge.close();
  }

  // Without an events log (an MCP client that keeps none) no card is made.
  const bare = await Deno.makeTempDir({ prefix: "feishu-mcp-taskcards-bare-" });
  bridge = await start(emu, bare);
  try {
    await emu.ws.whenReady();
    emu.userSends({ user: D.bob.openId, chat: D.bobP2p, text: "no journal here" });
    await bridge.channel.atLeast(1);
    const s = await taskStatus(bridge);
    assert.equal(s.journal.present, false);
    assert.deepEqual(cards(emu, D.bobP2p), []);
  } finally {
    await bridge.close();
  }
});
