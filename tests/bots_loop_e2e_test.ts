/**
 * End to end, other bots: the real server over stdio against the emulator,
 * with a second app's bot ("OtherBot") in the Team group. Under the default
 * `access.bots: "mention"` the two bots @-mention each other — OtherBot
 * through the emulator, the agent through the `feishu` tool — and the agent
 * is woken by the first ten of OtherBot's messages only: the loop guard
 * records the rest (readable, `sender_is_bot`) without a wake, a reaction or
 * a second note to the owner, who is told once in her DM; a person's
 * @-mention in the same chat still wakes the agent. `ignore` admits no bot,
 * `all` admits a bot's unmentioned message, and the default drops it; a
 * bot's `/status` is no local command.
 */

import assert from "node:assert/strict";
import { DEFAULT_IDS as D, type Emulator, startEmulator } from "../lib/emulator/mod.ts";
import { type Bridge, bridgeConfig, startBridge, until } from "./_inbound.ts";

type Rec = Record<string, unknown>;

/** A second app of the tenant, its bot in the Team group. */
const OTHER = {
  appId: "cli_0f0f0f0f0f0f0f0f",
  appSecret: "other-secret",
  botOpenId: "ou_emu_other_bot",
  botUnionId: "on_emu_other_bot",
  botName: "OtherBot",
  tenantKey: D.tenantKey,
};

function withOtherBot(emu: Emulator): void {
  emu.world.addApp(OTHER);
  emu.world.chats.get(D.team)!.bots.add(OTHER.appId);
}

function start(emu: Emulator, account: Rec): Promise<Bridge> {
  return startBridge({ config: bridgeConfig(emu.url, { account }) });
}

/** OtherBot @-mentions our bot in Team. */
const otherPings = (emu: Emulator, text: string) =>
  emu.botSends({ app: OTHER.appId, chat: D.team, text, mention: [D.appId] }).messageId;

/** The messages Feishu pushed to OtherBot (our bot's mentions of it). */
const heardByOther = (emu: Emulator) =>
  emu.events({ type: "im.message.receive_v1" }).filter((e) => e.appId === OTHER.appId).length;

async function admission(bridge: Bridge): Promise<Rec & { rejected: Rec }> {
  return (await bridge.account()).admission as Rec & { rejected: Rec };
}

Deno.test("bots: two bots mentioning each other wake the agent ten times, then are only recorded; the owner is told once; a person still wakes it", async () => {
  await using emu = await startEmulator();
  withOtherBot(emu);
  const bridge = await start(emu, { owners: [D.alice.openId] });
  try {
    await emu.ws.whenReady();
    // The owner's DM with the bot is known once she wrote to it.
    emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "hi" });
    await bridge.channel.atLeast(1);

    for (let i = 1; i <= 10; i++) {
      otherPings(emu, `ping ${i}`);
      const pushes = await bridge.channel.atLeast(1 + i);
      assert.match(pushes[i]!.content, new RegExp(`ping ${i}$`));
      // The agent answers with a mention of OtherBot, which Feishu pushes to it.
      const out = await bridge.call("send", {
        receive_id: D.team,
        receive_id_type: "chat_id",
        text: `<at user_id="${OTHER.botOpenId}">OtherBot</at> pong ${i}`,
      });
      assert.equal(out.status, "sent", JSON.stringify(out));
      assert.equal(heardByOther(emu), i);
    }

    // OtherBot keeps going; then Bob @-mentions the bot in the same chat. The chat is
    // handled in order, so Bob's wake coming next proves the three before it woke nobody.
    const held = [11, 12, 13].map((i) => otherPings(emu, `ping ${i}`));
    const bob = emu.userSends({
      user: D.bob.openId,
      chat: D.team,
      text: "are you there?",
      mentions: ["bot"],
    });
    const pushes = await bridge.channel.atLeast(12);
    assert.match(pushes[11]!.content, /are you there\?$/);
    assert.equal(pushes.length, 12);

    // Held messages are recorded and readable, marked as a bot's.
    const team = await bridge.records(D.team);
    const fromOther = team.filter((r) => r.sender_is_bot === true);
    assert.equal(fromOther.length, 13);
    assert.deepEqual(fromOther.map((r) => r.sender_type), Array(13).fill("app"));
    assert.equal(fromOther[0]!.from_open_id, OTHER.botOpenId);
    assert.match(String(fromOther.at(-1)!.text), /ping 13$/);
    const status = await admission(bridge);
    assert.equal(status.bots_held, 3);
    assert.equal(status.admitted, 1 + 13 + 1);

    // The owner got exactly one note, naming the chat and the cap.
    const notes = emu.messages(D.aliceP2p).filter((m) =>
      m.sender.type === "app" && m.content.includes("Bot loop guard")
    );
    assert.equal(notes.length, 1);
    assert.match(notes[0]!.content, /Team/);
    assert.match(notes[0]!.content, /at most 10 wake the Agent/);

    // Held messages get no OK and no Typing: once Bob's OK is there (same lane, later), none came.
    await emu.waitFor(() => emu.reactions(bob.messageId!).some((r) => r.emojiType === "OK"));
    for (const id of held) assert.deepEqual(emu.reactions(id), [], id);
    assert.deepEqual(
      fromOther.map((r) => r.wake_held === true),
      [...Array(10).fill(false), ...Array(3).fill(true)],
      "held records say so",
    );

    // A held message recalled tells the agent nothing (it never saw it): Bob's next wake comes
    // right after, in the chat's order.
    emu.recall({ messageId: held[0]!, push: true });
    emu.userSends({ user: D.bob.openId, chat: D.team, text: "still there?", mentions: ["bot"] });
    const after = await bridge.channel.atLeast(13);
    assert.match(after[12]!.content, /still there\?$/);
    assert.equal(after.length, 13);
  } finally {
    await bridge.close();
  }
});

Deno.test('bots: access.bots "ignore" admits no bot, even one that mentions ours', async () => {
  await using emu = await startEmulator();
  withOtherBot(emu);
  const bridge = await start(emu, { access: { bots: "ignore" } });
  try {
    await emu.ws.whenReady();
    otherPings(emu, "anyone home?");
    emu.userSends({ user: D.bob.openId, chat: D.team, text: "hello", mentions: ["bot"] });
    const pushes = await bridge.channel.atLeast(1);
    assert.match(pushes[0]!.content, /hello$/);
    assert.equal((await admission(bridge)).rejected.bot_ignored, 1);
    const team = await bridge.records(D.team);
    assert.deepEqual(team.filter((r) => r.sender_is_bot === true), []);
  } finally {
    await bridge.close();
  }
});

Deno.test('bots: access.bots "all" admits a bot\'s message without a mention; the default drops it', async () => {
  await using emu = await startEmulator({ botMessages: "all" });
  withOtherBot(emu);
  let bridge = await start(emu, {});
  try {
    await emu.ws.whenReady();
    emu.botSends({ app: OTHER.appId, chat: D.team, text: "status report, no mention" });
    otherPings(emu, "and this one mentions you");
    const pushes = await bridge.channel.atLeast(1);
    assert.match(pushes[0]!.content, /and this one mentions you$/);
    await until(async () => (await admission(bridge)).rejected.bot_not_mentioned === 1, {
      what: "the unmentioned bot message to be dropped",
    });
    await bridge.close();

    bridge = await start(emu, { access: { bots: "all" } });
    await emu.ws.whenReady();
    emu.botSends({ app: OTHER.appId, chat: D.team, text: "another report, no mention" });
    const all = await bridge.channel.atLeast(1);
    assert.equal(all.at(-1)!.content, "another report, no mention");
    // Local commands are for people: a bot's /status reaches the agent as text, unanswered.
    const status = otherPings(emu, "/status");
    const withCommand = await bridge.channel.atLeast(2);
    assert.match(withCommand[1]!.content, /\/status$/);
    assert.equal(emu.messages(D.team).filter((m) => m.parentId === status).length, 0);
    const rec = (await bridge.records(D.team)).find((r) => r.text === "another report, no mention");
    assert.equal(rec?.sender_is_bot, true);
    assert.equal(rec?.from_open_id, OTHER.botOpenId);
  } finally {
    await bridge.close();
  }
});
