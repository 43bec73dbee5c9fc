/**
 * End to end, first contact during an outage: a reconnect's backfill also
 * reads chats the bridge never heard from. A message in a never-seen group
 * (found by listing the bot's chats) and a first DM of a person who opened
 * the chat before (known from the `p2p_entered` event record) whose events
 * Feishu gave up on are read after the reconnect, exactly once, also when
 * the event is pushed at the reconnect while the backfill reads the chat
 * too. Opening the DM is recorded in `events`, and under `dm: "pairing"`
 * a stranger who opens it gets the pairing prompt once, before writing.
 * The outages last 30 s of Feishu's clock (the emulator's manual clock).
 */

import assert from "node:assert/strict";
import {
  DEFAULT_IDS as D,
  type Emulator,
  makeChat,
  makeUser,
  ManualEmuClock,
  startEmulator,
} from "../lib/emulator/mod.ts";
import { type Bridge, bridgeConfig, startBridge, until } from "./_inbound.ts";
import { backfillAfter, drainedJournal } from "./_chaos.ts";

type Rec = Record<string, unknown>;
const NEW_GROUP = "oc_emu_never_seen";
const OUTAGE_MS = 30_000;

function person(name: string) {
  const id = name.toLowerCase();
  return makeUser({
    openId: `ou_emu_${id}`,
    unionId: `on_emu_${id}`,
    userId: id,
    name,
    email: `${id}@example.com`,
  });
}

/** Waits for the first connect's backfill: the bridge is up and has covered its start. */
async function settled(bridge: Bridge, emu: Emulator): Promise<void> {
  await emu.ws.whenReady();
  await until(async () => (await bridge.account()).backfill, { what: "the first backfill" });
}

/**
 * Cuts the long connection for {@link OUTAGE_MS} of Feishu's clock, runs
 * `during` meanwhile (no session is up: a pushed event is queued for the
 * reconnect, a `lost` one is given up on), and waits for the reconnect's backfill.
 */
async function outage(
  bridge: Bridge,
  emu: Emulator,
  clock: ManualEmuClock,
  during: () => void,
): Promise<Rec> {
  const since = new Date().toISOString();
  emu.ws.drop();
  clock.advance(OUTAGE_MS / 2);
  during();
  clock.advance(OUTAGE_MS / 2);
  const account = await backfillAfter(bridge, since);
  await drainedJournal(bridge);
  return account.backfill as Rec;
}

Deno.test("a message in a never-seen group sent during an outage, its event lost, is read after the reconnect exactly once", async () => {
  const clock = new ManualEmuClock(Date.now());
  await using emu = await startEmulator({ clock });
  emu.world.addChat(makeChat({
    chatId: NEW_GROUP,
    name: "New",
    mode: "group",
    members: [D.alice.openId, D.bob.openId],
    bots: [D.appId],
  }));
  const bridge = await startBridge({ config: bridgeConfig(emu.url) });
  try {
    await settled(bridge, emu);
    // Known before the outage: its gap is read as before, not discovered.
    emu.userSends({ user: D.alice.openId, chat: D.team, text: "known", mentions: ["bot"] });
    await bridge.updates.atLeast(1);
    let lost: ReturnType<Emulator["userSends"]> | undefined;
    const first = await outage(bridge, emu, clock, () => {
      lost = emu.userSends({
        user: D.bob.openId,
        chat: NEW_GROUP,
        text: "anyone here?",
        mentions: ["bot"],
        push: { lost: true },
      });
    });
    assert.equal(emu.event(lost!.eventId)?.status, "expired");
    // Topics and the new group: never heard from; Team is known.
    assert.equal(first.discovered, 2);
    assert.equal(first.errors, 0);
    const lists = emu.requests({ method: "GET", path: "/open-apis/im/v1/chats" });
    assert.equal(lists.length, 1);
    assert.equal(lists[0]!.query.sort_type, "ByActiveTimeDesc");
    const records = await bridge.records(NEW_GROUP);
    assert.deepEqual(records.map((r) => r.feishu_message_id), [lost!.messageId]);
    assert.equal(records[0]!.backfilled, true);
    assert.equal(records[0]!.chat_type, "group");
    assert.equal(bridge.updates.items.length, 2);
    // Another outage: the group is known now, its message read again as a duplicate.
    const second = await outage(bridge, emu, clock, () => {});
    assert.equal(second.discovered, 1);
    assert.equal((await bridge.records(NEW_GROUP)).length, 1);
    assert.equal(bridge.updates.items.length, 2, "the agent was woken once for it");
    const status = await bridge.status();
    assert.equal(((status.accounts as Rec[])[0]!.backfill as Rec).discovered, 1);
  } finally {
    await bridge.close();
  }
});

Deno.test("a first DM during an outage, from a person who opened the chat before, is read exactly once: event pushed at the reconnect or lost", async () => {
  const clock = new ManualEmuClock(Date.now());
  await using emu = await startEmulator({ clock });
  const carol = person("Carol");
  const dave = person("Dave");
  emu.world.addUser(carol);
  emu.world.addUser(dave);
  const bridge = await startBridge({ config: bridgeConfig(emu.url) });
  try {
    await settled(bridge, emu);
    const carolChat = emu.userEntersP2p({ user: carol.openId }).chatId;
    const daveChat = emu.userEntersP2p({ user: dave.openId }).chatId;
    const entered = await until(async () => {
      const events = await bridge.records("events");
      return events.filter((e) => e.event_type === "p2p_entered").length === 2 && events;
    }, { what: "both p2p_entered records" });
    assert.deepEqual(entered.map((e) => e.source_chat_id).sort(), [carolChat, daveChat].sort());
    assert.equal(bridge.updates.items.length, 0, "opening a DM wakes nobody");
    let queued: ReturnType<Emulator["userSends"]> | undefined;
    let lost: ReturnType<Emulator["userSends"]> | undefined;
    const report = await outage(bridge, emu, clock, () => {
      queued = emu.userSends({ user: carol.openId, chat: carolChat, text: "hello, first time" });
      lost = emu.userSends({
        user: dave.openId,
        chat: daveChat,
        text: "me too",
        push: { lost: true },
      });
    });
    await bridge.updates.atLeast(2);
    await drainedJournal(bridge);
    assert.equal(emu.event(queued!.eventId)?.status, "acked");
    assert.equal(emu.event(lost!.eventId)?.status, "expired");
    // Both DMs were read by the backfill (Team and Topics too: never heard from).
    assert.equal(report.discovered, 4);
    const carols = await bridge.records(carolChat);
    const daves = await bridge.records(daveChat);
    assert.deepEqual(carols.map((r) => r.feishu_message_id), [queued!.messageId]);
    assert.deepEqual(daves.map((r) => r.feishu_message_id), [lost!.messageId]);
    assert.equal(daves[0]!.backfilled, true);
    assert.equal(daves[0]!.chat_type, "p2p");
    assert.equal(bridge.updates.items.length, 2, "each woke the agent once");
    const intake = (await bridge.account()).intake as Rec;
    assert.ok(
      Number(intake.duplicates) >= 1,
      "the re-pushed copy or the backfilled one was a duplicate",
    );
  } finally {
    await bridge.close();
  }
});

Deno.test("opening the bot's DM is an events record; under dm pairing a stranger who opens it gets the pairing prompt once", async () => {
  await using emu = await startEmulator();
  const carol = person("Carol");
  emu.world.addUser(carol);
  const open = await startBridge({ config: bridgeConfig(emu.url) });
  let chat: string;
  try {
    await emu.ws.whenReady();
    chat = emu.userEntersP2p({ user: carol.openId }).chatId;
    const record = await until(
      async () => (await open.records("events")).find((e) => e.event_type === "p2p_entered"),
      { what: "the p2p_entered record" },
    );
    assert.equal(record.source_chat_id, chat);
    assert.equal(record.from_open_id, carol.openId);
    assert.deepEqual((record.event as Rec).chat_id, chat);
    assert.equal(record.text, "[p2p_entered]");
    assert.equal(emu.messages(chat).length, 0, "open DMs get no prompt");
  } finally {
    await open.close();
  }
  const pairing = await startBridge({
    config: bridgeConfig(emu.url, {
      account: { owners: [D.alice.openId], access: { dm: "pairing" } },
    }),
  });
  try {
    await emu.ws.whenReady();
    const dave = person("Dave");
    emu.world.addUser(dave);
    const first = emu.userEntersP2p({ user: dave.openId });
    const prompt = await emu.waitForMessage((m) =>
      m.chatId === first.chatId && m.sender.type === "app"
    );
    assert.match(prompt.content, /`[a-z0-9]{6}`/);
    assert.equal(prompt.parentId, undefined, "no message to reply to: sent into the chat");
    // Opening again and writing: the code is pending, nothing more is sent.
    emu.userEntersP2p({ user: dave.openId });
    emu.userSends({ user: dave.openId, chat: first.chatId, text: "let me in" });
    await until(async () => {
      const rejected = ((await pairing.account()).admission as Rec).rejected as Rec;
      return rejected.pairing_required === 1 && rejected.actor_not_allowed === 2;
    }, { what: "the second opening and the DM refused" });
    await drainedJournal(pairing);
    assert.equal(
      emu.messages(first.chatId).filter((m) => m.sender.type === "app").length,
      1,
      "one pairing prompt",
    );
    assert.equal(pairing.updates.items.length, 0);
    const events = await pairing.records("events");
    assert.ok(
      !events.some((e) => e.from_open_id === dave.openId),
      "a stranger's opening is not recorded",
    );
  } finally {
    await pairing.close();
  }
});
