/**
 * End to end, inbound admission and presence: DMs pass, groups need an
 * explicit @bot (an `@all` alone is ignored), `allowed_users` gates senders
 * and event actors, passive events land in the reserved `events`
 * conversation without waking anyone, admitted messages get `OK` and one
 * `Typing` per chat, and rejections are counted in
 * status, never stored.
 */

import assert from "node:assert/strict";
import { DEFAULT_IDS as D, makeChat, startEmulator } from "../lib/emulator/mod.ts";
import { bridgeConfig, startBridge, until } from "./_inbound.ts";
import { presenceDrained } from "./_outbound.ts";

const emojis = (list: { emojiType: string }[]) => list.map((r) => r.emojiType);

Deno.test("admission: DMs pass, groups need an explicit @bot, @all alone is ignored, allowed_users gates senders", async () => {
  await using emu = await startEmulator();
  const bridge = await startBridge({
    config: bridgeConfig(emu.url, { account: { allowed_users: [D.alice.openId] } }),
  });
  try {
    await emu.ws.whenReady();
    const team = D.team;
    // One chat is one ordered FIFO: the last (admitted) message proves the
    // earlier ones were handled.
    emu.userSends({ user: D.alice.openId, chat: team, text: "no mention" });
    emu.userSends({ user: D.alice.openId, chat: team, text: "everyone", mentions: ["all"] });
    emu.userSends({ user: D.bob.openId, chat: team, text: "bob asks", mentions: ["bot"] });
    emu.userSends({ user: D.alice.openId, chat: team, text: "only bob", mentions: [D.bob.openId] });
    const both = emu.userSends({
      user: D.alice.openId,
      chat: team,
      text: "all and bot",
      mentions: ["all", "bot"],
    });
    const direct = emu.userSends({
      user: D.alice.openId,
      chat: team,
      text: "please look",
      mentions: ["bot", D.bob.openId],
    });
    const bare = emu.userSends({ user: D.alice.openId, chat: team, text: "", mentions: ["bot"] });
    await bridge.updates.atLeast(3);
    const records = await bridge.records(team);
    assert.deepEqual(records.map((r) => r.feishu_message_id), [
      both.messageId,
      direct.messageId,
      bare.messageId,
    ]);
    // The bot's own mention leaves the text; others stay as @Name.
    assert.deepEqual(records.map((r) => r.text), ["@all all and bot", "@Bob please look", ""]);
    const mentions = records[1]!.mentions as Record<string, unknown>[];
    assert.deepEqual(mentions.map((m) => [m.open_id, m.is_bot]), [
      [D.botOpenId, true],
      [D.bob.openId, false],
    ]);
    assert.equal((records[1]!.content as Record<string, unknown>).text, "@EmuBot @Bob please look");
    assert.equal(records[1]!.from_name, "Alice");

    // A DM needs no mention; a DM from someone outside allowed_users is dropped.
    emu.userSends({ user: D.bob.openId, chat: D.bobP2p, text: "hi from bob" });
    emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "hi from alice" });
    await bridge.updates.atLeast(4);
    const admission = await until(async () => {
      const a = (await bridge.account()).admission as Record<string, Record<string, number>>;
      return a.rejected!.sender_not_allowed === 2 && a;
    }, { what: "Bob's DM to be rejected" });
    assert.deepEqual(admission, {
      admitted: 4,
      deferred: 0,
      events: 0,
      rejected: { bot_not_mentioned: 2, mention_all_without_bot: 1, sender_not_allowed: 2 },
      commands: 0,
      failed: 0,
      bots_held: 0,
    });
    assert.deepEqual(await bridge.records(D.bobP2p), []);
    assert.equal((await bridge.records(D.aliceP2p))[0]!.text, "hi from alice");
    // Only admitted messages woke the agent.
    assert.equal(bridge.channel.items.length, 4);
  } finally {
    await bridge.close();
  }
});

Deno.test("presence: every admitted message gets OK, and each chat one Typing, on its newest message", async () => {
  await using emu = await startEmulator();
  const bridge = await startBridge({ config: bridgeConfig(emu.url) });
  try {
    await emu.ws.whenReady();
    const a1 = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "one" });
    const a2 = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "two" });
    const b1 = emu.userSends({ user: D.bob.openId, chat: D.bobP2p, text: "bob" });
    const g1 = emu.userSends({ user: D.bob.openId, chat: D.team, text: "ignored" });
    const g2 = emu.userSends({ user: D.bob.openId, chat: D.team, text: "hey", mentions: ["bot"] });
    await bridge.updates.atLeast(4);
    // The agent is woken without waiting for the OK and Typing, which take their turn in the
    // chat's lane.
    const shown = (m: { messageId?: string }) => emojis(emu.reactions(m.messageId!)).sort();
    await emu.waitFor(() =>
      [a1, a2, b1, g2].every((m) => shown(m).includes("OK")) &&
      [a2, b1, g2].every((m) => shown(m).includes("Typing")) && !shown(a1).includes("Typing")
    );
    await presenceDrained(() => bridge.server.resource("lingtai://status"));
    assert.deepEqual(shown(a1), ["OK"]);
    assert.deepEqual(shown(a2), ["OK", "Typing"]);
    assert.deepEqual(shown(b1), ["OK", "Typing"]);
    assert.deepEqual(shown(g1), []);
    assert.deepEqual(shown(g2), ["OK", "Typing"]);
    for (const r of [a1, a2, b1, g2].flatMap((m) => emu.reactions(m.messageId!))) {
      assert.equal(r.operatorType, "app");
    }
  } finally {
    await bridge.close();
  }
  // Shutdown takes the pending Typing reactions away; OK stays.
  assert.deepEqual(
    [D.aliceP2p, D.bobP2p, D.team].flatMap((c) =>
      emu.messages(c).flatMap((m) => emojis(emu.reactions(m.messageId)))
    ),
    ["OK", "OK", "OK", "OK"],
  );
});

Deno.test("passive events go to the events conversation once each, never wake the agent, and skip the bot's own reactions", async () => {
  await using emu = await startEmulator({ pushOwnReactionEvents: true });
  const bridge = await startBridge({
    config: bridgeConfig(emu.url, { account: { allowed_users: [D.alice.openId] } }),
  });
  try {
    await emu.ws.whenReady();
    emu.world.addChat(makeChat({
      chatId: "oc_emu_new_group",
      name: "New",
      mode: "group",
      members: [D.alice.openId, D.bob.openId],
      bots: [],
    }));
    const target = emu.userSends({
      user: D.alice.openId,
      chat: D.team,
      text: "react here",
      mentions: ["bot"],
    });
    await bridge.updates.atLeast(1);
    // The message is stored without waiting for its OK and Typing: wait for both (the emulator
    // pushes both).
    await emu.waitFor(() => emojis(emu.reactions(target.messageId!)).length === 2);
    const before = {
      channel: bridge.channel.items.length,
      updates: bridge.updates.items.length,
    };
    const reaction = emu.userReacts({
      user: D.alice.openId,
      messageId: target.messageId!,
      emoji: "THUMBSUP",
      push: { duplicate: true },
    });
    emu.userReacts({ user: D.bob.openId, messageId: target.messageId!, emoji: "SMILE" });
    const read = emu.userReads({ user: D.alice.openId, messageIds: [target.messageId!] });
    emu.ws.duplicate(read.eventId);
    emu.addBotToChat({ chat: "oc_emu_new_group", operator: D.alice.openId });
    emu.removeBotFromChat({ chat: D.team, operator: D.alice.openId });
    const admission = await until(async () => {
      const a = (await bridge.account()).admission as Record<string, unknown>;
      return a.events === 4 && a;
    }, { what: "four events recorded" });
    const journal = await until(async () => {
      const j = (await bridge.status()).journal as Record<string, number>;
      return j.pending === 0 && j;
    }, { what: "the journal to drain" });
    assert.equal(journal.duplicates, 2);
    assert.deepEqual((admission as { rejected: unknown }).rejected, {
      self_reaction: 2,
      actor_not_allowed: 1,
    });

    const out = await bridge.call("read", { chat_id: "events", limit: null });
    const events = (out.messages as Record<string, unknown>[]).reverse();
    assert.deepEqual(events.map((e) => e.event_type), [
      "reaction",
      "message_read",
      "bot_added",
      "bot_leave",
    ]);
    for (const e of events) {
      assert.equal(e.synthetic, true);
      assert.equal(e.chat_id, "events");
      assert.ok(Object.keys(e.feishu as object).length > 0);
    }
    const r = events[0]!;
    assert.equal(r.source_chat_id, D.team);
    const ev = r.event as Record<string, unknown>;
    assert.deepEqual(ev, {
      message_id: target.messageId,
      operator: { open_id: D.alice.openId, user_id: D.alice.userId, name: "Alice" },
      emoji_type: "THUMBSUP",
      action: "added",
      chat_id: D.team,
      chat_type: "group",
      action_time: ev.action_time,
    });
    assert.equal(typeof ev.action_time, "number");
    assert.equal(r.feishu_event_id, reaction.eventId);

    const found = await bridge.call("search", { query: "THUMBSUP", chat_id: "events" });
    assert.equal(found.total, 1);
    const hit = (found.messages as Record<string, unknown>[])[0]!;
    assert.deepEqual(hit.feishu, emu.event(reaction.eventId)!.envelope);

    // Nothing woke the agent; the events conversation is never a notification.
    assert.equal(bridge.channel.items.length, before.channel);
    assert.equal(bridge.updates.items.length, before.updates);
  } finally {
    await bridge.close();
  }
});

Deno.test("bot identity: without it group messages wait (never lost); once cached, @-gating works while both lookups fail", async () => {
  await using emu = await startEmulator();
  const down = () => {
    for (
      const path of ["/open-apis/bot/v3/info", "/open-apis/application/v6/applications/:app_id"]
    ) {
      emu.faults.add({ path, respond: { status: 500, code: 99991400, msg: "unavailable" } });
    }
  };
  const workdir = await Deno.makeTempDir({ prefix: "feishu-mcp-test-" });
  const config = bridgeConfig(emu.url);
  const run = async (text: string, settled: (s: Record<string, unknown>) => boolean) => {
    const bridge = await startBridge({ config, workdir });
    try {
      await emu.waitFor(() => emu.ws.status().some((s) => !s.closed && s.ready));
      emu.userSends({ user: D.alice.openId, chat: D.team, text, mentions: ["bot"] });
      emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text }); // DMs need no identity
      await bridge.updates.atLeast(1);
      await until(async () => settled(await bridge.status()), { what: "the journal to settle" });
      const account = await bridge.account();
      return {
        team: (await bridge.records(D.team)).map((r) => r.text),
        identity: account.identity as Record<string, unknown> | null,
        admission: account.admission as { rejected: Record<string, number>; deferred: number },
      };
    } finally {
      await bridge.close();
    }
  };
  const drained = (s: Record<string, unknown>) => {
    const j = s.journal as Record<string, number>;
    return j.pending === 0 && j.in_flight === 0;
  };
  down();
  // The group message is held in the journal (its job fails and is retried), not rejected.
  const first = await run("first", (s) => {
    const a = (s.accounts as { admission: { deferred?: number } }[])[0]!;
    return (a.admission.deferred ?? 0) >= 1 && (s.journal as Record<string, number>).pending === 1;
  });
  assert.deepEqual(first.team, []);
  assert.deepEqual(first.admission.rejected, {});
  assert.equal(first.identity, null);
  emu.faults.clear();
  // Restarted with the lookups working: the held message comes through, in order.
  const second = await run("second", drained);
  assert.deepEqual(second.team, ["first", "second"]);
  assert.equal(second.identity?.bot_name, "EmuBot");
  down();
  // The cached identity keeps @-gating working while both lookups fail.
  const third = await run("third", drained);
  assert.deepEqual(third.team, ["first", "second", "third"]);
  assert.equal(third.identity?.source, "bot_info");
  assert.equal(third.identity?.bot_open_id_known, true);
});
