/**
 * End to end, inbound delivery guarantees (the ACK follows one durable intake
 * commit; dedupe survives restarts): duplicate and re-delivered events give
 * one record, also after a restart on the same workdir; a connection dropped
 * mid-burst (with fragmented and duplicated frames) loses and doubles
 * nothing; messages Feishu never pushed are recovered by backfill; and after
 * `kill -9` every event the emulator saw ACKed is processed exactly once.
 */

import assert from "node:assert/strict";
import {
  DEFAULT_IDS as D,
  type Emulator,
  ManualEmuClock,
  startEmulator,
} from "../lib/emulator/mod.ts";
import { type Bridge, bridgeConfig, serverPid, startBridge, until } from "./_inbound.ts";
import { presenceDrained } from "./_outbound.ts";

type Rec = Record<string, unknown>;
const CHATS = [D.aliceP2p, D.bobP2p, D.team];

/** The n-th message of a burst: round robin over three chats (the group one mentions the bot). */
function burstMessage(emu: Emulator, n: number, push?: Record<string, unknown>) {
  const chat = CHATS[n % 3]!;
  const user = chat === D.bobP2p ? D.bob.openId : D.alice.openId;
  return emu.userSends({
    user,
    chat,
    text: `burst ${n}`,
    mentions: chat === D.team ? ["bot"] : [],
    push,
  });
}

/** Every record of the three burst chats. */
async function allRecords(bridge: Bridge): Promise<Rec[]> {
  return (await Promise.all(CHATS.map((c) => bridge.records(c)))).flat();
}

/** Waits until the journal holds nothing and runs nothing. */
function drained(bridge: Bridge): Promise<Record<string, number>> {
  return until(async () => {
    const j = (await bridge.status()).journal as Record<string, number>;
    return j.pending === 0 && j.in_flight === 0 && j;
  }, { what: "the journal to drain" });
}

function assertExactlyOnce(records: Rec[], messageIds: string[]): void {
  const ids = records.map((r) => String(r.feishu_message_id));
  assert.equal(new Set(ids).size, ids.length, "a message was recorded twice");
  assert.deepEqual([...ids].sort(), [...messageIds].sort());
}

Deno.test("duplicate and re-delivered events give one record, also after a restart on the same workdir", async () => {
  // Feishu's clock a minute ahead of ours: the restart's backfill must still
  // list these messages (it may not cut the history at our "now").
  const clock = new ManualEmuClock(Date.now() + 60_000);
  await using emu = await startEmulator({ clock });
  const config = bridgeConfig(emu.url);
  let bridge = await startBridge({ config });
  try {
    await emu.ws.whenReady();
    // Redelivered after a lost ACK (same event id, new frame).
    emu.ws.withholdAcks(true);
    const m1 = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "one" });
    await emu.waitFor(() => emu.event(m1.eventId)?.ignoredAcks.length === 1);
    emu.ws.withholdAcks(false);
    clock.advance(3000);
    await m1.ack;
    // Pushed twice at once, and once more later.
    const m2 = emu.userSends({
      user: D.alice.openId,
      chat: D.aliceP2p,
      text: "two",
      push: { duplicate: true },
    });
    const m3 = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "three" });
    await bridge.updates.atLeast(3);
    assert.ok(emu.ws.duplicate(m3.eventId));
    await emu.waitFor(() => emu.event(m3.eventId)!.acks.length === 2);
    assert.equal(emu.event(m1.eventId)!.redeliveries, 1);
    assert.equal(emu.event(m2.eventId)!.acks.length, 2);
    assert.deepEqual((await bridge.account()).intake, {
      queued: 3,
      duplicates: 3,
      ignored: 0,
      failed: 0,
    });
    await drained(bridge);
    assert.deepEqual((await bridge.records(D.aliceP2p)).map((r) => r.text), [
      "one",
      "two",
      "three",
    ]);
    assert.equal(bridge.updates.items.length, 3);
    assert.equal(bridge.channel.items.length, 3);

    // Restart on the same workdir: the dedupe keys are on disk.
    const workdir = bridge.server.workdir;
    await bridge.close();
    bridge = await startBridge({ config, workdir });
    await emu.waitFor(() => emu.ws.status().some((s) => !s.closed && s.ready));
    assert.ok(emu.ws.duplicate(m1.eventId));
    assert.ok(emu.ws.duplicate(m2.eventId));
    await emu.waitFor(() => emu.event(m2.eventId)!.acks.length === 3);
    const account = await until(async () => {
      const a = await bridge.account();
      return (a.backfill as Rec | null)?.seen === 2 && a;
    }, { what: "the start-up backfill" });
    // Two redeliveries, and the history from the newest stored message's second
    // ("two" and "three", 3 s after "one"): all recognised, none queued.
    assert.deepEqual(account.intake, { queued: 0, duplicates: 4, ignored: 0, failed: 0 });
    assert.equal((account.backfill as Rec).queued, 0);
    await drained(bridge);
    assert.deepEqual((await bridge.records(D.aliceP2p)).map((r) => r.text), [
      "one",
      "two",
      "three",
    ]);
    assert.equal(bridge.updates.items.length, 0);
  } finally {
    await bridge.close();
  }
});

Deno.test("a burst with fragmented and duplicated frames, and a connection dropped in the middle, loses and doubles nothing", async () => {
  await using emu = await startEmulator({ ackTimeoutMs: 300 });
  const bridge = await startBridge({ config: bridgeConfig(emu.url) });
  try {
    await emu.ws.whenReady();
    const sent: string[] = [];
    const events: string[] = [];
    const send = (n: number) => {
      const push = n % 4 === 1
        ? { fragments: 3, order: "reverse" }
        : n % 4 === 2
        ? { duplicate: true }
        : n % 4 === 3
        ? { fragments: 2, duplicate: true }
        : undefined;
      const m = burstMessage(emu, n, push);
      sent.push(m.messageId!);
      events.push(m.eventId);
    };
    for (let n = 0; n < 20; n++) send(n);
    await emu.waitFor(() => emu.events({ status: "acked" }).length >= 5);
    // Drop without reading what is in flight: those ACKs are lost, Feishu pushes again.
    assert.ok(emu.ws.drop({ graceful: false }) >= 1);
    for (let n = 20; n < 40; n++) send(n);
    await emu.waitFor(() => events.every((id) => emu.event(id)?.status === "acked"));
    await bridge.updates.atLeast(40);
    await drained(bridge);
    assertExactlyOnce(await allRecords(bridge), sent);
    assert.equal(bridge.updates.items.length, 40);
    const pushed = bridge.channel.items.map((p) => p.meta.message_id);
    assert.equal(new Set(pushed).size, 40);
    const account = await bridge.account();
    assert.equal((account.intake as Rec).queued, 40);
    // Extra deliveries happened, and each one the bridge saw was recognised.
    const extra = events.reduce((n, id) => n + emu.event(id)!.attempts.length - 1, 0);
    assert.ok(extra >= 10, `expected redeliveries and duplicates, found ${extra}`);
    assert.ok(Number((account.intake as Rec).duplicates) >= 1);
    assert.ok(Number((account.connection as Rec).reconnects) >= 1);
    for (const chat of CHATS) {
      // Within a chat, records read in Feishu's order.
      const texts = (await bridge.records(chat)).map((r) => Number(String(r.text).split(" ")[1]));
      assert.deepEqual(texts, [...texts].sort((a, b) => a - b));
    }
  } finally {
    await bridge.close();
  }
});

Deno.test("backfill recovers messages Feishu never pushed once the connection comes back, flagged, and admits only what admission allows", async () => {
  await using emu = await startEmulator();
  const bridge = await startBridge({ config: bridgeConfig(emu.url) });
  try {
    await emu.ws.whenReady();
    // The chats become known to the bridge.
    emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "before" });
    emu.userSends({ user: D.alice.openId, chat: D.team, text: "team before", mentions: ["bot"] });
    await bridge.updates.atLeast(2);
    // Feishu gives up on these (say the bridge was offline through every retry).
    const lost = { lost: true };
    const l1 = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "gap 1", push: lost });
    const l2 = emu.userSends({
      user: D.bob.openId,
      chat: D.team,
      text: "gap 2",
      mentions: ["bot"],
      push: lost,
    });
    emu.userSends({ user: D.bob.openId, chat: D.team, text: "not for the bot", push: lost });
    const l3 = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "gap 3", push: lost });
    assert.deepEqual(
      emu.events({ status: "expired" }).map((e) => e.attempts.length),
      [0, 0, 0, 0],
    );
    // The connection drops and comes back: the reconnect triggers a backfill.
    emu.ws.drop();
    await bridge.updates.atLeast(5);
    await drained(bridge);
    const alice = await bridge.records(D.aliceP2p);
    const team = await bridge.records(D.team);
    assert.deepEqual(alice.map((r) => r.text), ["before", "gap 1", "gap 3"]);
    assert.deepEqual(team.map((r) => r.text), ["team before", "gap 2"]);
    for (const r of [alice[1]!, alice[2]!, team[1]!]) {
      assert.equal(r.backfilled, true);
      assert.equal(typeof r.delayed_seconds, "number");
    }
    assert.deepEqual(
      [alice[1], alice[2], team[1]].map((r) => r!.feishu_message_id),
      [l1.messageId, l3.messageId, l2.messageId],
    );
    assert.equal(alice[0]!.backfilled, false);
    assert.equal(team[1]!.from_name, "Bob");
    assert.equal(team[1]!.chat_type, "group");
    // The recovered messages woke the agent and got their presence reactions.
    assert.ok(emu.reactions(l1.messageId!).some((r) => r.emojiType === "OK"));
    const account = await bridge.account();
    const connection = account.connection as Rec;
    assert.equal(connection.state, "connected");
    assert.equal(connection.reconnects, 1);
    assert.match(String(connection.last_frame_at), /^\d{4}-\d\d-\d\dT.*Z$/);
    assert.match(String(connection.last_event_at), /^\d{4}-\d\d-\d\dT.*Z$/);
    // Topics, where the bridge never heard from anyone, is discovered and read too (empty).
    assert.deepEqual(
      account.backfill && { ...(account.backfill as Rec), at: null, started_at: null },
      {
        chats: 3,
        threads: 0,
        seen: 6,
        queued: 4,
        errors: 0,
        truncated: 0,
        discovered: 1,
        at: null,
        started_at: null,
      },
    );
    assert.equal(
      ((account.admission as Rec).rejected as Rec).bot_not_mentioned,
      1,
    );
  } finally {
    await bridge.close();
  }
});

Deno.test("backfill also recovers replies inside topics, which a chat's history does not list", async () => {
  await using emu = await startEmulator();
  const bridge = await startBridge({ config: bridgeConfig(emu.url) });
  try {
    await emu.ws.whenReady();
    const root = emu.userSends({
      user: D.alice.openId,
      chat: D.topics,
      text: "topic one",
      mentions: ["bot"],
    });
    await bridge.updates.atLeast(1);
    const lost = { lost: true };
    // A reply in the known topic, and a new topic with a reply, all while offline.
    const r1 = emu.userSends({
      user: D.bob.openId,
      chat: D.topics,
      text: "reply in topic one",
      mentions: ["bot"],
      replyTo: root.messageId,
      inThread: true,
      push: lost,
    });
    const root2 = emu.userSends({
      user: D.bob.openId,
      chat: D.topics,
      text: "topic two",
      push: lost,
    });
    const r2 = emu.userSends({
      user: D.alice.openId,
      chat: D.topics,
      text: "reply in topic two",
      mentions: ["bot"],
      replyTo: root2.messageId,
      inThread: true,
      push: lost,
    });
    emu.ws.drop();
    await bridge.updates.atLeast(3);
    await drained(bridge);
    const records = await bridge.records(D.topics);
    assert.deepEqual(records.map((r) => r.feishu_message_id), [
      root.messageId,
      r1.messageId,
      r2.messageId,
    ]);
    assert.equal(records[1]!.thread_id, records[0]!.thread_id);
    assert.equal(records[2]!.root_id, root2.messageId);
    assert.equal(records[2]!.backfilled, true);
    // The unmentioned new topic was seen and rejected, not stored.
    const account = await bridge.account();
    assert.equal(((account.admission as Rec).rejected as Rec).bot_not_mentioned, 1);
    assert.equal((account.backfill as Rec).threads, 2);
  } finally {
    await bridge.close();
  }
});

Deno.test("a silent connection is caught by the watchdog: status shows the stall and the reconnect, and the gap is backfilled", async () => {
  await using emu = await startEmulator();
  const bridge = await startBridge({ config: bridgeConfig(emu.url) });
  try {
    await emu.ws.whenReady();
    emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "before" });
    await bridge.updates.atLeast(1);
    const before = (await bridge.account()).connection as Rec;
    assert.equal(before.state, "connected");
    assert.equal(before.reconnects, 0);
    // The socket stays open but nothing comes through: no pongs, no events.
    emu.ws.setSilent(true);
    const queued = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "queued" });
    const lost = emu.userSends({
      user: D.alice.openId,
      chat: D.aliceP2p,
      text: "never pushed",
      push: { lost: true },
    });
    await bridge.updates.atLeast(3);
    await drained(bridge);
    assert.deepEqual((await bridge.records(D.aliceP2p)).map((r) => r.text), [
      "before",
      "queued",
      "never pushed",
    ]);
    assert.ok(emu.event(queued.eventId)?.ack);
    assert.equal(emu.event(lost.eventId)?.attempts.length, 0);
    const account = await bridge.account();
    const after = account.connection as Rec;
    assert.equal(after.state, "connected");
    assert.equal(after.reconnects, 1);
    assert.match(String(after.last_error), /^no frame for \d+ s/);
    assert.ok(String(after.last_event_at) >= String(before.last_event_at));
    assert.equal(emu.ws.status().filter((s) => !s.closed).length, 1);
    assert.deepEqual((account.admission as Rec).admitted, 3);
  } finally {
    await bridge.close();
  }
});

Deno.test("kill -9 mid-burst: after a restart every event the emulator saw ACKed is processed exactly once", async () => {
  await using emu = await startEmulator({ ackTimeoutMs: 500 });
  const config = bridgeConfig(emu.url);
  let bridge = await startBridge({ config });
  try {
    await emu.ws.whenReady();
    // Alice's chat is held by a slow download, so its FIFO is full at the kill.
    emu.faults.add({
      method: "GET",
      path: "/open-apis/im/v1/messages/:message_id/resources/:file_key",
      times: 1,
      respond: { delayMs: 600_000 },
    });
    const sent: string[] = [];
    const file = emu.userSends({
      user: D.alice.openId,
      chat: D.aliceP2p,
      file: { bytes: new TextEncoder().encode("held"), name: "held.txt" },
    });
    sent.push(file.messageId!);
    await emu.waitFor(() => emu.faults.rules().length === 0);
    for (let n = 0; n < 30; n++) sent.push(burstMessage(emu, n).messageId!);
    await emu.waitFor(() => emu.events({ status: "acked" }).length >= 15);
    // ACKed and journaled, not yet processed: Alice's chat is still held.
    assert.deepEqual(await bridge.records(D.aliceP2p), []);
    const aliceAcked = emu.events({ status: "acked" }).filter((e) =>
      (e.envelope.event as { message?: { chat_id?: string } }).message?.chat_id === D.aliceP2p
    );
    assert.ok(aliceAcked.length >= 2, "the held file and a message behind it were ACKed");
    const workdir = bridge.server.workdir;
    Deno.kill(await serverPid(workdir), "SIGKILL");
    for (let n = 30; n < 40; n++) sent.push(burstMessage(emu, n).messageId!);
    const ackedBeforeRestart = emu.events({ status: "acked" }).map((e) => e.eventId);
    assert.ok(ackedBeforeRestart.length >= 15);
    await bridge.close();

    bridge = await startBridge({ config, workdir });
    await emu.waitFor(() => emu.events().every((e) => e.status === "acked"));
    await drained(bridge);
    const records = await allRecords(bridge);
    assertExactlyOnce(records, sent);
    const byEvent = new Map(records.map((r) => [(r.feishu as { header: Rec }).header.event_id, r]));
    for (const id of ackedBeforeRestart) {
      assert.ok(byEvent.has(id), `ACKed event ${id} has a record`);
    }
    const held = records.find((r) => r.feishu_message_id === file.messageId)!;
    assert.equal((held.attachments as Rec[])[0]!.status, "downloaded");
    // The killed server's Typing reactions were cleared at start; once presence is
    // drained each chat has exactly the one the restarted server added, on its newest message.
    await presenceDrained(() => bridge.server.resource("lingtai://status"));
    for (const chat of CHATS) {
      const typing = emu.messages(chat).filter((m) =>
        emu.reactions(m.messageId).some((r) => r.emojiType === "Typing")
      );
      assert.equal(typing.length, 1, `one Typing in ${chat}`);
      const newest = emu.messages(chat).filter((m) => m.sender.type === "user").at(-1)!;
      assert.equal(
        typing[0]!.messageId,
        newest.messageId,
        `the Typing of ${chat} is on its newest`,
      );
    }
    const journal = (await bridge.status()).journal as Rec;
    assert.equal(journal.dead_letters, 0);
    // The restarted server resumed the FIFO the killed one left behind.
    assert.ok(Number(journal.processed) > Number(journal.admitted));
  } finally {
    await bridge.close();
  }
});
