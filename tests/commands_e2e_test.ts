/**
 * End to end, local slash commands and control cards: the real server over
 * stdio against the emulator, with a small agent directory as its workdir.
 * A command is answered by a control card replying to it, in its topic,
 * without a record, a reaction or a wake; unknown slash text is ordinary
 * input; groups need an explicit @bot; a control button replaces its card in
 * place; signals are written exactly and a replayed click writes none; a
 * click by someone outside `allowed_users` does nothing; a crash after the
 * answer reached Feishu answers once. Who may: only owners (else allowed
 * users, else nobody) run control commands, `/clear` and `/sleep` only from
 * their confirm button; a control value on a card the agent sent is data.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import {
  DEFAULT_IDS as D,
  type Emulator,
  ManualEmuClock,
  startEmulator,
} from "../lib/emulator/mod.ts";
import {
  type Bridge,
  bridgeConfig,
  sendButtonCard,
  serverPid,
  startBridge,
  until,
} from "./_inbound.ts";

type Rec = Record<string, unknown>;
const REPLY = "/open-apis/im/v1/messages/:message_id/reply";
type Card = {
  header: { title: { content: string } };
  body: { elements: Rec[] };
};

/** A workdir that looks like a LingTai agent speaking `language`. */
async function agentDir(language: string): Promise<string> {
  const parent = await Deno.makeTempDir({ prefix: "feishu-mcp-agents-" });
  const workdir = join(parent, "scribe");
  await Deno.mkdir(join(workdir, "system"), { recursive: true });
  await Deno.writeTextFile(
    join(workdir, ".agent.json"),
    JSON.stringify({
      agent_id: "agent-0123456789abcdef",
      nickname: "scribe",
      language,
      state: "IDLE",
      molt_count: 2,
      llm: { model: "model-x", provider: "acme", context_limit: 200000 },
    }),
  );
  await Deno.writeTextFile(
    join(workdir, ".status.json"),
    JSON.stringify({
      runtime: { state: "ACTIVE", uptime_seconds: 125 },
      tokens: { context: { total_tokens: 1200, window_size: 200000, usage_pct: 0.6 } },
    }),
  );
  await Deno.writeTextFile(join(workdir, "system", "brief.md"), "Ship the report by Friday.");
  await Deno.writeTextFile(join(workdir, "system", "principle.md"), "Be kind. <at id=all></at>");
  return workdir;
}

/** Alice owns the agent unless a test says otherwise. */
async function start(
  emu: Emulator,
  language: string,
  account: Rec = { owners: [D.alice.openId] },
): Promise<Bridge & { workdir: string }> {
  const workdir = await agentDir(language);
  const bridge = await startBridge({ workdir, config: bridgeConfig(emu.url, { account }) });
  return Object.assign(bridge, { workdir });
}

/** The bot's card replies to a message. */
function answers(emu: Emulator, chatId: string, messageId: string) {
  return emu.messages(chatId).filter((m) =>
    m.sender.type === "app" && m.parentId === messageId && m.msgType === "interactive"
  );
}

async function answerOf(emu: Emulator, chatId: string, messageId: string): Promise<Card> {
  const m = await emu.waitForMessage((m) =>
    m.chatId === chatId && m.sender.type === "app" && m.parentId === messageId
  );
  return JSON.parse(m.content) as Card;
}

function buttons(card: Card): { label: string; value: Rec }[] {
  return card.body.elements.filter((e) => e.tag === "button").map((e) => ({
    label: (e.text as { content: string }).content,
    value: e.value as Rec,
  }));
}

const exists = (path: string) => Deno.stat(path).then(() => true, () => false);

Deno.test("/help in a DM is answered with a localized control card and leaves no record, reaction or wake", async () => {
  await using emu = await startEmulator();
  const cases: [string, string][] = [
    ["zh", "scribe · 控制中心"],
    ["wen", "scribe · 总览"],
    ["fr", "scribe · Controls"],
  ];
  for (const [language, title] of cases) {
    const bridge = await start(emu, language);
    try {
      await emu.ws.whenReady();
      const cmd = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "/help" });
      const after = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "hello" });
      const pushes = await bridge.channel.atLeast(1);
      assert.deepEqual(pushes.map((p) => p.content), ["hello"]);
      const card = await answerOf(emu, D.aliceP2p, cmd.messageId!);
      assert.equal(card.header.title.content, title);
      for (const b of buttons(card)) assert.deepEqual(Object.keys(b.value), ["lingtai_control"]);
      const ids = (await bridge.records(D.aliceP2p)).map((r) => r.feishu_message_id);
      assert.ok(!ids.includes(cmd.messageId));
      assert.ok(ids.includes(after.messageId));
      assert.deepEqual(emu.reactions(cmd.messageId!), []);
    } finally {
      await bridge.close();
    }
  }
});

Deno.test("groups need an explicit @bot; a topic command is answered in its topic; /help@Bot works; unknown slash text is ordinary input", async () => {
  await using emu = await startEmulator();
  const bridge = await start(emu, "en");
  try {
    await emu.ws.whenReady();
    const quiet = emu.userSends({ user: D.alice.openId, chat: D.team, text: "/help" });
    const all = emu.userSends({
      user: D.alice.openId,
      chat: D.team,
      text: "/help",
      mentions: ["all"],
    });
    const topic = emu.userSends({
      user: D.alice.openId,
      chat: D.topics,
      text: "/status",
      mentions: ["bot"],
    });
    const suffixed = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "/help@Bot" });
    const future = emu.userSends({
      user: D.alice.openId,
      chat: D.aliceP2p,
      text: "/future-command now",
    });
    const pushes = await bridge.channel.atLeast(1);
    assert.equal(pushes[0]!.content, "/future-command now");

    const inTopic = await answerOf(emu, D.topics, topic.messageId!);
    assert.equal(inTopic.header.title.content, "scribe · Status");
    const reply = emu.messages(D.topics).find((m) => m.parentId === topic.messageId)!;
    assert.ok(reply.threadId, "the answer is in the command's topic");
    await answerOf(emu, D.aliceP2p, suffixed.messageId!);
    assert.deepEqual(answers(emu, D.team, quiet.messageId!), []);
    assert.deepEqual(answers(emu, D.team, all.messageId!), []);
    assert.deepEqual(answers(emu, D.aliceP2p, future.messageId!), []);
    assert.equal(bridge.channel.items.length, 1);
  } finally {
    await bridge.close();
  }
});

Deno.test("control buttons update their card in place; signals are exact, a second refresh is pending, a replayed click writes nothing", async () => {
  await using emu = await startEmulator();
  const bridge = await start(emu, "en");
  try {
    await emu.ws.whenReady();
    const cmd = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "/kanban" });
    const kanban = await answerOf(emu, D.aliceP2p, cmd.messageId!);
    const cardId = emu.messages(D.aliceP2p).find((m) => m.parentId === cmd.messageId)!.messageId;
    const layer3 = buttons(kanban).find((b) => b.label.startsWith("3 · "))!;
    const clicked = await emu.clickCard({
      user: D.alice.openId,
      messageId: cardId,
      value: layer3.value,
    }).result;
    assert.equal(clicked.applied, true);
    const now = JSON.parse(emu.messages(D.aliceP2p).find((m) => m.messageId === cardId)!.content);
    assert.match(JSON.stringify(now), /3 · Runtime/);

    const refresh = { lingtai_control: { version: 1, command: "refresh", argument: "" } };
    await emu.clickCard({ user: D.alice.openId, messageId: cardId, value: refresh }).result;
    assert.equal(await Deno.readTextFile(join(bridge.workdir, ".refresh")), "");
    const again = await emu.clickCard({ user: D.alice.openId, messageId: cardId, value: refresh })
      .result;
    assert.match(JSON.stringify(again.card?.data), /A refresh is already pending/);

    for (const command of ["sleep", "clear"]) {
      const typed = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: `/${command}` });
      const asking = await answerOf(emu, D.aliceP2p, typed.messageId!);
      assert.equal(await exists(join(bridge.workdir, `.${command}`)), false, "typing only asks");
      const confirm = buttons(asking).find((b) => b.label === "Confirm")!;
      const asked = emu.messages(D.aliceP2p).find((m) => m.parentId === typed.messageId)!;
      await emu.clickCard({
        user: D.alice.openId,
        messageId: asked.messageId,
        value: confirm.value,
      })
        .result;
    }
    assert.equal(await Deno.readTextFile(join(bridge.workdir, ".sleep")), "");
    assert.equal(await Deno.readTextFile(join(bridge.workdir, ".clear")), "feishu\n");

    // The same click delivered again (a type=card frame with its event id) writes no signal.
    await Deno.remove(join(bridge.workdir, ".sleep"));
    const sleepValue = { lingtai_control: { version: 1, command: "sleep", argument: "confirm" } };
    const envelope = {
      schema: "2.0" as const,
      header: {
        event_id: "ev_control_replay",
        event_type: "card.action.trigger",
        create_time: String(Date.now()),
        token: "",
        app_id: D.appId,
        tenant_key: "tk_emu",
      },
      event: {
        operator: { open_id: D.alice.openId },
        action: { tag: "button", value: sleepValue },
        context: { open_message_id: cardId, open_chat_id: D.aliceP2p },
      },
    };
    emu.ws.sendCardFrame(envelope);
    await emu.waitFor(() => emu.ws.unmatchedAcks().length === 1);
    assert.equal(await exists(join(bridge.workdir, ".sleep")), true);
    await Deno.remove(join(bridge.workdir, ".sleep"));
    emu.ws.sendCardFrame(envelope);
    await emu.waitFor(() => emu.ws.unmatchedAcks().length === 2);
    assert.equal(await exists(join(bridge.workdir, ".sleep")), false);
    const claims = await Deno.readTextFile(
      join(bridge.workdir, "feishu", "control_callbacks.json"),
    );
    assert.ok(!claims.includes("ev_control_replay"), "only hashes are stored");
    // Control clicks never wake the agent nor become records.
    assert.equal(bridge.channel.items.length, 0);
    const records = await bridge.records(D.aliceP2p);
    assert.deepEqual(records.filter((r) => r.message_type === "card_action"), []);
  } finally {
    await bridge.close();
  }
});

Deno.test("a control click by someone outside allowed_users does nothing", async () => {
  await using emu = await startEmulator();
  const bridge = await start(emu, "en", {
    allowed_users: [D.alice.openId],
    owners: [D.alice.openId],
  });
  try {
    await emu.ws.whenReady();
    const cmd = emu.userSends({
      user: D.alice.openId,
      chat: D.team,
      text: "/help",
      mentions: ["bot"],
    });
    await answerOf(emu, D.team, cmd.messageId!);
    const cardId = emu.messages(D.team).find((m) => m.parentId === cmd.messageId)!.messageId;
    const sleep = { lingtai_control: { version: 1, command: "sleep", argument: "confirm" } };
    const refused = await emu.clickCard({ user: D.bob.openId, messageId: cardId, value: sleep })
      .result;
    assert.equal(refused.applied, false);
    assert.equal(refused.toast?.type, "error");
    assert.equal(await exists(join(bridge.workdir, ".sleep")), false);
  } finally {
    await bridge.close();
  }
});

Deno.test("a crash after a command's answer reached Feishu and before its journal entry was done answers once", async () => {
  const clock = new ManualEmuClock(Date.now());
  await using emu = await startEmulator({ clock });
  const workdir = await agentDir("en");
  const config = bridgeConfig(emu.url, { account: { owners: [D.alice.openId] } });
  let bridge = await startBridge({ workdir, config });
  try {
    await emu.ws.whenReady();
    // The answer's request reaches Feishu, which takes a minute (emulator clock) to act on it.
    emu.faults.add({ method: "POST", path: REPLY, times: 1, respond: { delayMs: 60_000 } });
    const cmd = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "/status" });
    await emu.waitFor(() => emu.requests({ method: "POST", path: REPLY }).length === 1);
    Deno.kill(await serverPid(workdir), "SIGKILL");
    await bridge.close();
    clock.advance(60_000);
    await answerOf(emu, D.aliceP2p, cmd.messageId!);

    bridge = await startBridge({ workdir, config });
    await emu.ws.whenReady();
    await until(async () => {
      const j = (await bridge.status()).journal as Record<string, number>;
      return j.pending === 0 && j.in_flight === 0;
    }, { what: "the journal to drain" });
    assert.ok(emu.requests({ method: "POST", path: REPLY }).length >= 2, "the job was replayed");
    assert.equal(answers(emu, D.aliceP2p, cmd.messageId!).length, 1, "answered once");
  } finally {
    await bridge.close();
  }
});

/** The bot's answer card to a message, and its message id. */
async function answered(emu: Emulator, chatId: string, messageId: string) {
  const card = await answerOf(emu, chatId, messageId);
  const id = emu.messages(chatId).find((m) => m.parentId === messageId)!.messageId;
  return { card, id };
}

/** The text of a card's markdown body. */
const bodyOf = (card: Card) => String(card.body.elements[0]!.content);

const confirmValue = (command: string) => ({
  lingtai_control: { version: 1, command, argument: "confirm" },
});

Deno.test("with no owners and no allowed users nobody controls the agent: /clear typed or clicked writes nothing and says how to name an owner", async () => {
  await using emu = await startEmulator();
  const bridge = await start(emu, "en", {});
  try {
    await emu.ws.whenReady();
    const typed = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "/clear" });
    const refusal = await answered(emu, D.aliceP2p, typed.messageId!);
    assert.match(bodyOf(refusal.card), /^Nobody can control this Agent yet/);
    assert.ok(bodyOf(refusal.card).includes(`\`"owners": ["${D.alice.openId}"]\``));
    assert.ok(bodyOf(refusal.card).includes(`**Your open_id:** \`${D.alice.openId}\``));
    assert.deepEqual(buttons(refusal.card).map((b) => b.label), ["Controls"]);

    // /help stays open; its Clear button, and a forged confirm on it, are refused in place.
    const help = emu.userSends({ user: D.bob.openId, chat: D.bobP2p, text: "/help" });
    const shown = await answered(emu, D.bobP2p, help.messageId!);
    assert.equal(shown.card.header.title.content, "scribe · Controls");
    const clear = buttons(shown.card).find((b) => b.label === "Clear")!;
    const clicked = await emu.clickCard({
      user: D.bob.openId,
      messageId: shown.id,
      value: clear.value,
    }).result;
    assert.match(JSON.stringify(clicked.card?.data), /Nobody can control this Agent yet/);
    assert.match(JSON.stringify(clicked.card?.data), new RegExp(D.bob.openId));
    const forged = await emu.clickCard({
      user: D.bob.openId,
      messageId: shown.id,
      value: confirmValue("clear"),
    }).result;
    assert.match(JSON.stringify(forged.card?.data), /Nobody can control this Agent yet/);
    const status = emu.userSends({ user: D.bob.openId, chat: D.bobP2p, text: "/status" });
    assert.match(bodyOf((await answered(emu, D.bobP2p, status.messageId!)).card), /^Nobody/);

    for (const signal of [".clear", ".sleep", ".refresh"]) {
      assert.equal(await exists(join(bridge.workdir, signal)), false, signal);
    }
    // Talking to the agent is as before: everyone admitted wakes it; commands never do.
    emu.userSends({ user: D.bob.openId, chat: D.bobP2p, text: "hello" });
    const pushes = await bridge.channel.atLeast(1);
    assert.deepEqual(pushes.map((p) => p.content), ["hello"]);
    assert.deepEqual(
      (await bridge.records(D.bobP2p)).filter((r) => r.message_type === "card_action"),
      [],
    );
  } finally {
    await bridge.close();
  }
});

Deno.test("an owner's /clear and /sleep need the confirm click; a non-owner's click and a cancel write nothing", async () => {
  await using emu = await startEmulator();
  const bridge = await start(emu, "en", { owners: [D.alice.openId] });
  const clearFile = join(bridge.workdir, ".clear");
  try {
    await emu.ws.whenReady();
    const typed = emu.userSends({
      user: D.alice.openId,
      chat: D.team,
      text: "/clear",
      mentions: ["bot"],
    });
    const asking = await answered(emu, D.team, typed.messageId!);
    assert.equal(
      bodyOf(asking.card),
      "Clear the conversation? The Agent forgets what was said so far.",
    );
    assert.deepEqual(buttons(asking.card).map((b) => b.label), ["Confirm", "Cancel"]);
    assert.equal(await exists(clearFile), false, "typing /clear only asks");

    const confirm = buttons(asking.card).find((b) => b.label === "Confirm")!.value;
    const cancel = buttons(asking.card).find((b) => b.label === "Cancel")!.value;
    const byBob = await emu.clickCard({ user: D.bob.openId, messageId: asking.id, value: confirm })
      .result;
    assert.deepEqual(byBob.toast, {
      type: "error",
      content: "Only the Agent's owners can use this button.",
    });
    assert.equal(byBob.applied, false, "the card stays as it was");
    const cancelled = await emu.clickCard({
      user: D.alice.openId,
      messageId: asking.id,
      value: cancel,
    }).result;
    assert.match(JSON.stringify(cancelled.card?.data), /Cancelled. Nothing was changed./);
    assert.equal(await exists(clearFile), false);

    const again = emu.userSends({
      user: D.alice.openId,
      chat: D.team,
      text: "/clear",
      mentions: ["bot"],
    });
    const second = await answered(emu, D.team, again.messageId!);
    const done = await emu.clickCard({ user: D.alice.openId, messageId: second.id, value: confirm })
      .result;
    assert.match(JSON.stringify(done.card?.data), /Conversation reset requested./);
    assert.equal(await Deno.readTextFile(clearFile), "feishu\n");

    const sleep = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "/sleep" });
    const asleep = await answered(emu, D.aliceP2p, sleep.messageId!);
    assert.equal(await exists(join(bridge.workdir, ".sleep")), false);
    await emu.clickCard({
      user: D.alice.openId,
      messageId: asleep.id,
      value: buttons(asleep.card).find((b) => b.label === "Confirm")!.value,
    }).result;
    assert.equal(await Deno.readTextFile(join(bridge.workdir, ".sleep")), "");
    assert.equal(bridge.channel.items.length, 0, "nobody was woken");
  } finally {
    await bridge.close();
  }
});

Deno.test("with owners set, an allowed user who is not an owner is refused every control command but /help, and still talks to the agent", async () => {
  await using emu = await startEmulator();
  const bridge = await start(emu, "en", {
    owners: [D.alice.openId],
    allowed_users: [D.alice.openId, D.bob.openId],
  });
  try {
    await emu.ws.whenReady();
    for (const text of ["/clear", "/refresh", "/system", "/brief", "/status", "/taskcard off"]) {
      const typed = emu.userSends({ user: D.bob.openId, chat: D.bobP2p, text });
      const { card } = await answered(emu, D.bobP2p, typed.messageId!);
      assert.equal(
        bodyOf(card).split("\n")[0],
        "Only the Agent's owners can use this command.",
        text,
      );
      assert.ok(!bodyOf(card).includes("Ship the report"), `${text} shows nothing`);
    }
    const help = emu.userSends({ user: D.bob.openId, chat: D.bobP2p, text: "/help" });
    const shown = await answered(emu, D.bobP2p, help.messageId!);
    assert.equal(shown.card.header.title.content, "scribe · Controls");
    const refresh = buttons(shown.card).find((b) => b.label === "Refresh")!;
    const clicked = await emu.clickCard({
      user: D.bob.openId,
      messageId: shown.id,
      value: refresh.value,
    }).result;
    assert.equal(clicked.toast?.type, "error");
    assert.equal(clicked.applied, false);
    for (const signal of [".clear", ".refresh"]) {
      assert.equal(await exists(join(bridge.workdir, signal)), false, signal);
    }
    assert.equal(await exists(join(bridge.workdir, "feishu", "taskcard.json")), false);
    emu.userSends({ user: D.bob.openId, chat: D.bobP2p, text: "hello" });
    assert.deepEqual((await bridge.channel.atLeast(1)).map((p) => p.content), ["hello"]);
  } finally {
    await bridge.close();
  }
});

Deno.test("a control value on a card the agent sent is an ordinary click: no signal, and the agent gets it as data", async () => {
  await using emu = await startEmulator();
  const bridge = await start(emu, "en", { owners: [D.alice.openId] });
  try {
    await emu.ws.whenReady();
    const lure = confirmValue("clear");
    const cardId = await sendButtonCard(bridge, emu, D.aliceP2p, "Tidy up", lure);
    const clicked = await emu.clickCard({ user: D.alice.openId, messageId: cardId, value: lure })
      .result;
    assert.deepEqual(clicked.toast, { type: "info", content: "Sent to the agent." });
    const [push] = await bridge.channel.atLeast(1);
    assert.equal(push!.meta.message_type, "card_action");
    assert.match(push!.content, /lingtai_control/);
    assert.equal(await exists(join(bridge.workdir, ".clear")), false);
    const [record] = (await bridge.records(D.aliceP2p)).filter((r) =>
      r.message_type === "card_action"
    );
    assert.deepEqual((record!.card_action as { action: Rec }).action.value, lure);
  } finally {
    await bridge.close();
  }
});
