/**
 * End to end, card callbacks: the real server over stdio (real MCP client)
 * against the emulator's long connection (real node-sdk inside the server).
 * A business click becomes exactly one `card_action` record in the card's
 * conversation and one wake; a duplicate delivery, a redelivery after a
 * restart, an actor outside `allowed_users` or no actor at all make none; a
 * click is answered while its chat is still busy, and handled after the
 * chat's earlier message, while another chat goes on. A click cannot hurt:
 * a value nested 20 000 deep is recorded with a placeholder in one attempt,
 * one user's flood wakes the agent a bounded number of times, what `read`
 * shows carries no token, and a click naming another chat than its card's
 * files nowhere.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import {
  DEFAULT_IDS as D,
  type Emulator,
  ManualEmuClock,
  startEmulator,
} from "../lib/emulator/mod.ts";
import { TOO_MANY_CLICKS } from "../lib/callbacks/mod.ts";
import { type Bridge, bridgeConfig, startBridge, until } from "./_inbound.ts";

type Rec = Record<string, unknown>;
const RESOURCE = "/open-apis/im/v1/messages/:message_id/resources/:file_key";

/** A schema-2.0 card with one callback button. */
function card(title: string, value: Rec): Rec {
  return {
    schema: "2.0",
    header: { title: { tag: "plain_text", content: title } },
    body: {
      elements: [
        { tag: "markdown", content: `**${title}**` },
        {
          tag: "button",
          text: { tag: "plain_text", content: "Confirm" },
          type: "primary",
          behaviors: [{ type: "callback", value }],
        },
      ],
    },
  };
}

/** The bridge sends a card to a chat; returns its Feishu message id. */
async function sendCard(bridge: Bridge, emu: Emulator, chatId: string): Promise<string> {
  const out = await bridge.call("send", {
    receive_id: chatId,
    receive_id_type: "chat_id",
    content: { type: "card", card: card("Deploy?", { action: "confirm" }) },
  });
  assert.equal(out.status, "sent", JSON.stringify(out));
  return emu.lastSent(chatId)!.messageId;
}

/** The card_action records of a chat. */
async function clicks(bridge: Bridge, chatId: string): Promise<Rec[]> {
  return (await bridge.records(chatId)).filter((r) => r.message_type === "card_action");
}

/** A raw click envelope, as Feishu sends it (`operator` empty without an actor). */
function rawClick(eventId: string, openId: string | null, cardId: string, chatId: string) {
  return {
    schema: "2.0" as const,
    header: {
      event_id: eventId,
      event_type: "card.action.trigger",
      create_time: String(Date.now()),
      token: "",
      app_id: D.appId,
      tenant_key: "tk_emu",
    },
    event: {
      operator: openId ? { open_id: openId } : {},
      action: { tag: "button", value: { action: "confirm" } },
      context: { open_message_id: cardId, open_chat_id: chatId },
    },
  };
}

function startOn(emu: Emulator, extra: { account?: Rec; workdir?: string } = {}) {
  return startBridge({
    config: bridgeConfig(emu.url, { account: extra.account }),
    workdir: extra.workdir,
  });
}

Deno.test("a click becomes one card_action record in the card's chat and one wake; a second click on the same button is a second record", async () => {
  await using emu = await startEmulator();
  const bridge = await startOn(emu);
  try {
    await emu.ws.whenReady();
    const cardId = await sendCard(bridge, emu, D.aliceP2p);
    const first = emu.clickCard({
      user: D.alice.openId,
      messageId: cardId,
      value: '{"action":"confirm"}',
      tag: "button",
      push: { duplicate: true },
    });
    // Delivered twice at once: whichever ACK comes first settles the click (the
    // duplicate's is empty), so only the code is certain here.
    assert.equal((await first.result).ackCode, 200);
    await bridge.channel.atLeast(1);
    const second = emu.clickCard({
      user: D.alice.openId,
      messageId: cardId,
      value: { action: "confirm" },
      tag: "button",
    });
    const answered = await second.result;
    assert.equal(answered.ackCode, 200);
    assert.deepEqual(answered.toast, { type: "info", content: "Sent to the agent." });
    const pushes = await bridge.channel.atLeast(2);

    const records = await clicks(bridge, D.aliceP2p);
    assert.deepEqual(records.map((r) => r.feishu_event_id), [first.eventId, second.eventId]);
    const r = records[0]!;
    assert.equal(r.id, `main:${D.aliceP2p}:callback-${first.eventId}`);
    assert.equal(r.event_type, "card_action");
    assert.equal(r.from_open_id, D.alice.openId);
    assert.equal(r.source_message_id, cardId);
    assert.equal(r.source_message_ref, `main:${D.aliceP2p}:${cardId}`);
    assert.equal(r.text, '[card action: button] {"action": "confirm"}');
    assert.deepEqual((r.content as { action: Rec }).action.value, { action: "confirm" });
    assert.deepEqual((r.card_action as { action: Rec }).action.value, { action: "confirm" });
    assert.equal(((r.feishu as Rec).header as Rec).event_id, first.eventId);

    assert.equal(pushes.length, 2);
    for (const p of pushes) {
      assert.equal(p.meta.message_type, "card_action");
      assert.equal(p.meta.chat_id, D.aliceP2p);
      assert.equal(p.meta.source_message_id, `main:${D.aliceP2p}:${cardId}`);
    }
    // The duplicate delivery was journaled once: one record, one wake.
    assert.equal(bridge.channel.items.length, 2);
    const main = await bridge.account();
    assert.equal((main.card_callbacks as Rec).business, 2);
    assert.equal((main.intake as Rec).duplicates, 1);
    // The agent answers a click by editing the card it names.
    const edited = await bridge.call("edit", {
      message_id: pushes[0]!.meta.source_message_id,
      content: { type: "card", card: card("Deployed", { action: "undo" }) },
    });
    assert.equal(edited.status, "edited", JSON.stringify(edited));
    assert.match(emu.messages(D.aliceP2p).find((m) => m.messageId === cardId)!.content, /Deployed/);
    // A callback record is not a message to reply to.
    const reply = await bridge.call("reply", { message_id: r.id, text: "ok" });
    assert.equal(reply.error_code, "INVALID_ARGUMENT", JSON.stringify(reply));
    assert.match(String(reply.error), /source_message_ref/);
  } finally {
    await bridge.close();
  }
});

Deno.test("a click delivered again after a restart is not recorded again and wakes no one", async () => {
  await using emu = await startEmulator();
  const workdir = await Deno.makeTempDir({ prefix: "feishu-mcp-cards-" });
  let bridge = await startOn(emu, { workdir });
  const cardId = await sendCard(bridge, emu, D.aliceP2p);
  await emu.ws.whenReady();
  const envelope = rawClick("ev_replayed", D.alice.openId, cardId, D.aliceP2p);
  emu.ws.sendCardFrame(envelope);
  await bridge.channel.atLeast(1);
  await bridge.close();

  bridge = await startOn(emu, { workdir });
  try {
    await emu.ws.whenReady();
    emu.ws.sendCardFrame(envelope);
    // A later message in the same chat proves the replayed click was handled first.
    emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "after" });
    const pushes = await bridge.channel.atLeast(1);
    assert.deepEqual(pushes.map((p) => p.meta.message_type), ["text"]);
    assert.equal((await clicks(bridge, D.aliceP2p)).length, 1);
    // Both deliveries were acknowledged; only the first got an answer.
    assert.deepEqual(emu.ws.unmatchedAcks().map((a) => [a.code, a.data !== undefined]), [
      [200, true],
      [200, false],
    ]);
  } finally {
    await bridge.close();
  }
});

Deno.test("clicks by someone outside allowed_users, or without an actor, make no record and no wake; the refused user sees why", async () => {
  await using emu = await startEmulator();
  const bridge = await startOn(emu, { account: { allowed_users: [D.alice.openId] } });
  try {
    await emu.ws.whenReady();
    const cardId = await sendCard(bridge, emu, D.team);
    const refused = await emu.clickCard({
      user: D.bob.openId,
      messageId: cardId,
      value: { action: "confirm" },
    }).result;
    assert.deepEqual(refused.toast, {
      type: "error",
      content: "You are not allowed to use this card.",
    });
    // No actor at all, sent in a type=card frame (the node-sdk alone would drop it).
    emu.ws.sendCardFrame(rawClick("ev_no_actor", null, cardId, D.team));
    // Alice's click, after both, is the only one recorded.
    await emu.clickCard({ user: D.alice.openId, messageId: cardId, value: { action: "ok" } })
      .result;
    const pushes = await bridge.channel.atLeast(1);
    const records = await clicks(bridge, D.team);
    assert.deepEqual(records.map((r) => r.from_open_id), [D.alice.openId]);
    assert.equal(pushes.length, 1);
    assert.equal(pushes[0]!.meta.open_id, D.alice.openId);
    assert.equal(pushes[0]!.meta.chat_id, D.team);
    const acks = emu.ws.unmatchedAcks().map((a) => a.code);
    assert.deepEqual(acks, [200], "the type=card frame was acknowledged");
  } finally {
    await bridge.close();
  }
});

Deno.test("a click in a type=card frame is recorded like any other", async () => {
  await using emu = await startEmulator();
  const bridge = await startOn(emu);
  try {
    await emu.ws.whenReady();
    const cardId = await sendCard(bridge, emu, D.aliceP2p);
    emu.ws.sendCardFrame(rawClick("ev_card_frame", D.alice.openId, cardId, D.aliceP2p));
    await bridge.channel.atLeast(1);
    const records = await clicks(bridge, D.aliceP2p);
    assert.deepEqual(records.map((r) => r.feishu_event_id), ["ev_card_frame"]);
    assert.deepEqual(emu.ws.unmatchedAcks().map((a) => [a.code, a.data]), [[200, {
      toast: { type: "info", content: "Sent to the agent." },
    }]]);
  } finally {
    await bridge.close();
  }
});

Deno.test("a click is answered while its chat is busy, handled after the chat's earlier message, and another chat's click goes on meanwhile", async () => {
  const clock = new ManualEmuClock(Date.now());
  await using emu = await startEmulator({ clock });
  const bridge = await startOn(emu);
  try {
    await emu.ws.whenReady();
    const aliceCard = await sendCard(bridge, emu, D.aliceP2p);
    const bobCard = await sendCard(bridge, emu, D.bobP2p);
    // Alice's image holds her chat: its download waits on the emulator clock.
    emu.faults.add({ method: "GET", path: RESOURCE, times: 1, respond: { delayMs: 60_000 } });
    const image = emu.userSends({
      user: D.alice.openId,
      chat: D.aliceP2p,
      image: { bytes: crypto.getRandomValues(new Uint8Array(128)) },
    });
    await emu.waitFor(() => emu.requests({ method: "GET", path: RESOURCE }).length === 1);
    const aliceClick = emu.clickCard({
      user: D.alice.openId,
      messageId: aliceCard,
      value: { n: 1 },
    });
    const answered = await aliceClick.result;
    assert.equal(answered.ackCode, 200);
    // Answered while the image is still downloading: nothing of Alice's is recorded yet.
    assert.deepEqual(
      await bridge.records(D.aliceP2p).then((r) => r.filter((x) => x._direction !== "outgoing")),
      [],
    );

    const bobClick = emu.clickCard({ user: D.bob.openId, messageId: bobCard, value: { n: 2 } });
    await bobClick.result;
    const first = await bridge.channel.atLeast(1);
    assert.equal(first[0]!.meta.chat_id, D.bobP2p, "Bob's chat is not held by Alice's");

    clock.advance(60_000);
    const all = await bridge.channel.atLeast(3);
    const alice = all.filter((p) => p.meta.chat_id === D.aliceP2p).map((p) => p.meta.message_type);
    assert.deepEqual(alice, ["image", "card_action"]);
    await until(async () => (await clicks(bridge, D.aliceP2p)).length === 1);
    assert.ok(image.messageId);
  } finally {
    await bridge.close();
  }
});

Deno.test("a click on a card in a topic lands in that topic; one in a group lands in the group", async () => {
  await using emu = await startEmulator();
  const bridge = await startOn(emu);
  try {
    await emu.ws.whenReady();
    emu.userSends({
      user: D.alice.openId,
      chat: D.topics,
      text: "topic question",
      mentions: ["bot"],
    });
    const [question] = await bridge.channel.atLeast(1);
    const threadId = question!.meta.thread_id;
    assert.ok(threadId);
    const sent = await bridge.call("reply", {
      message_id: question!.meta.message_id,
      content: { type: "card", card: card("In the topic", { where: "topic" }) },
    });
    assert.equal(sent.status, "sent", JSON.stringify(sent));
    const topicCard = emu.lastSent(D.topics)!.messageId;
    const groupCard = await sendCard(bridge, emu, D.team);
    await emu.clickCard({ user: D.alice.openId, messageId: topicCard, value: { where: "topic" } })
      .result;
    await emu.clickCard({ user: D.bob.openId, messageId: groupCard, value: { where: "group" } })
      .result;
    const pushes = await bridge.channel.atLeast(3);
    const [inTopic, inGroup] = pushes.slice(1);
    assert.equal(inTopic!.meta.chat_id, D.topics);
    assert.equal(inTopic!.meta.thread_id, threadId);
    assert.equal(inGroup!.meta.chat_id, D.team);
    assert.equal(inGroup!.meta.thread_id, undefined);
    const [record] = await clicks(bridge, D.topics);
    assert.equal(record!.thread_id, threadId);
    assert.equal(record!.source_message_ref, `main:${D.topics}:${topicCard}`);
    assert.equal((await clicks(bridge, D.team)).length, 1);
  } finally {
    await bridge.close();
  }
});

Deno.test("for LingTai a click writes one LICC event that wakes the agent and names the card", async () => {
  await using emu = await startEmulator();
  const workdir = await Deno.makeTempDir({ prefix: "feishu-mcp-cards-licc-" });
  const bridge = await startBridge({
    workdir,
    config: bridgeConfig(emu.url),
    env: { LINGTAI_AGENT_DIR: workdir, LINGTAI_MCP_NAME: "feishu" },
  });
  try {
    await emu.ws.whenReady();
    const cardId = await sendCard(bridge, emu, D.aliceP2p);
    const click = emu.clickCard({ user: D.alice.openId, messageId: cardId, value: { a: 1 } });
    await click.result;
    await until(async () => (await clicks(bridge, D.aliceP2p)).length === 1);
    const dir = join(workdir, ".mcp_inbox", "feishu");
    const events: Rec[] = [];
    await until(async () => {
      events.length = 0;
      for await (const e of Deno.readDir(dir)) {
        if (e.name.endsWith(".json")) {
          events.push(JSON.parse(await Deno.readTextFile(join(dir, e.name))));
        }
      }
      return events.length === 1;
    }, { what: "one LICC event" });
    const e = events[0]!;
    assert.equal(e.licc_version, 1);
    assert.equal(e.wake, true);
    assert.equal(e.subject, `feishu card action from ${D.alice.name} via main`);
    const meta = e.metadata as Rec;
    assert.equal(meta.message_id, `main:${D.aliceP2p}:callback-${click.eventId}`);
    assert.equal(meta.message_type, "card_action");
    assert.equal(meta.source_message_ref, `main:${D.aliceP2p}:${cardId}`);
    assert.equal(meta.chat_id, D.aliceP2p);
    assert.match(String(e.body), /card action: button/);
  } finally {
    await bridge.close();
  }
});

Deno.test("a click value nested 20 000 levels deep is recorded with a placeholder in one attempt, and the chat's next message follows it", async () => {
  await using emu = await startEmulator();
  const bridge = await startOn(emu);
  try {
    await emu.ws.whenReady();
    const cardId = await sendCard(bridge, emu, D.aliceP2p);
    // A JSON string value: the server parses it into a 20 000-level object.
    const deep = '{"a":'.repeat(20_000) + "1" + "}".repeat(20_000);
    const click = emu.clickCard({ user: D.alice.openId, messageId: cardId, value: deep });
    assert.equal((await click.result).ackCode, 200);
    emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "after" });
    const pushes = await bridge.channel.atLeast(2);
    assert.deepEqual(pushes.map((p) => p.meta.message_type), ["card_action", "text"]);
    const [record] = await clicks(bridge, D.aliceP2p);
    assert.deepEqual((record!.card_action as { action: Rec }).action.value, {
      truncated: true,
      note: "The card sent a value larger than 8192 bytes; it was dropped.",
    });
    // Each of the two jobs ran once: no failed attempt, nothing dead-lettered.
    const journal = await until(async () => {
      const j = (await bridge.status()).journal as Rec;
      return j.pending === 0 && j.in_flight === 0 && j;
    }, { what: "the journal to drain" });
    assert.deepEqual([journal.failures, journal.dead_letters, journal.processed], [0, 0, 2]);
  } finally {
    await bridge.close();
  }
});

Deno.test("one user's 40 clicks in a minute wake the agent 10 times; all 40 are recorded; a minute later a click wakes it again", async () => {
  const clock = new ManualEmuClock(Date.now());
  await using emu = await startEmulator({ clock });
  const bridge = await startOn(emu);
  try {
    await emu.ws.whenReady();
    const cardId = await sendCard(bridge, emu, D.aliceP2p);
    for (let n = 0; n < 40; n++) {
      await emu.clickCard({ user: D.alice.openId, messageId: cardId, value: { n } }).result;
    }
    // The message after them in the chat is handled after all 40.
    emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "after" });
    await until(() =>
      Promise.resolve(bridge.channel.items.some((p) => p.meta.message_type === "text"))
    );
    const kinds = bridge.channel.items.map((p) => p.meta.message_type);
    assert.deepEqual(kinds, [...Array(10).fill("card_action"), "text"]);
    assert.equal((await clicks(bridge, D.aliceP2p)).length, 40);
    const counters = (await bridge.account()).card_callbacks as Rec;
    assert.deepEqual([counters.business, counters.throttled], [10, 30]);
    // Over the limit, the clicker is told so.
    const over = await emu.clickCard({ user: D.alice.openId, messageId: cardId, value: {} }).result;
    assert.deepEqual(over.toast, { type: "warning", content: TOO_MANY_CLICKS });

    clock.advance(60_000);
    await emu.clickCard({ user: D.alice.openId, messageId: cardId, value: { n: "later" } })
      .result;
    const later = await bridge.channel.atLeast(12);
    assert.equal(later[11]!.meta.message_type, "card_action");
    assert.match(later[11]!.content, /later/);
  } finally {
    await bridge.close();
  }
});

Deno.test("read and search of a click show no event token and no update token", async () => {
  await using emu = await startEmulator();
  const bridge = await startOn(emu);
  try {
    await emu.ws.whenReady();
    const cardId = await sendCard(bridge, emu, D.aliceP2p);
    await emu.clickCard({ user: D.alice.openId, messageId: cardId, value: { pick: "blue" } })
      .result;
    const pushes = await bridge.channel.atLeast(1);
    const issued = [...emu.world.cardTokens.keys()];
    assert.equal(issued.length, 1, "the emulator issued one update token");
    const read = JSON.stringify(await clicks(bridge, D.aliceP2p));
    const found = JSON.stringify(await bridge.call("search", { query: "blue" }));
    assert.match(found, /card action: button/);
    for (
      const [what, json] of [["read", read], ["search", found], ["push", JSON.stringify(pushes)]]
    ) {
      assert.ok(!/token"\s*:/i.test(json!), `${what} has a token key: ${json}`);
      assert.ok(!json!.includes(issued[0]!), `${what} has the update token`);
    }
    assert.match(read, /"event_id"/, "the envelope is still there, without its tokens");
  } finally {
    await bridge.close();
  }
});

Deno.test("a click whose callback names another chat than its card's is answered with an error and files nowhere", async () => {
  await using emu = await startEmulator();
  const bridge = await startOn(emu);
  try {
    await emu.ws.whenReady();
    const cardId = await sendCard(bridge, emu, D.aliceP2p);
    emu.ws.sendCardFrame(rawClick("ev_elsewhere", D.alice.openId, cardId, D.team));
    await emu.waitFor(() => emu.ws.unmatchedAcks().length === 1);
    assert.deepEqual(emu.ws.unmatchedAcks()[0]!.data, {
      toast: { type: "error", content: "This card belongs to another chat." },
    });
    // A message after it in the same (named) chat proves the click was handled first.
    emu.userSends({ user: D.alice.openId, chat: D.team, text: "after", mentions: ["bot"] });
    const pushes = await bridge.channel.atLeast(1);
    assert.deepEqual(pushes.map((p) => p.meta.message_type), ["text"]);
    assert.deepEqual(await clicks(bridge, D.team), []);
    assert.deepEqual(await clicks(bridge, D.aliceP2p), []);
    assert.equal(((await bridge.account()).card_callbacks as Rec).misplaced, 1);
  } finally {
    await bridge.close();
  }
});
