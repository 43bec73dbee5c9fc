/**
 * End to end, local slash commands and control cards: the real server over
 * stdio against the emulator, with a small agent directory as its workdir.
 * A command is answered by a control card replying to it, in its topic,
 * without a record, a reaction or a wake; unknown slash text is ordinary
 * input; groups need an explicit @bot; a control button replaces its card in
 * place; signals are written exactly and a replayed click writes none; a
 * click by someone outside `allowed_users` does nothing; a crash after the
 * answer reached Feishu answers once.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import {
  DEFAULT_IDS as D,
  type Emulator,
  ManualEmuClock,
  startEmulator,
} from "../lib/emulator/mod.ts";
import { type Bridge, bridgeConfig, serverPid, startBridge, until } from "./_inbound.ts";

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

async function start(
  emu: Emulator,
  language: string,
  account: Rec = {},
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

    const sleep = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "/sleep" });
    await answerOf(emu, D.aliceP2p, sleep.messageId!);
    assert.equal(await Deno.readTextFile(join(bridge.workdir, ".sleep")), "");
    const clear = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "/clear" });
    await answerOf(emu, D.aliceP2p, clear.messageId!);
    assert.equal(await Deno.readTextFile(join(bridge.workdir, ".clear")), "feishu\n");

    // The same click delivered again (a type=card frame with its event id) writes no signal.
    await Deno.remove(join(bridge.workdir, ".sleep"));
    const sleepValue = { lingtai_control: { version: 1, command: "sleep", argument: "" } };
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
  const bridge = await start(emu, "en", { allowed_users: [D.alice.openId] });
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
    const sleep = { lingtai_control: { version: 1, command: "sleep", argument: "" } };
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
  const config = bridgeConfig(emu.url);
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
