/**
 * End to end, chats that go away: a group dissolved (`im.chat.disbanded_v1`)
 * or the bot removed from it (`im.chat.member.bot.deleted_v1`) is marked gone
 * in the store: a later `send`, `reply` or `react` there fails fast with
 * `TARGET_REVOKED` before any request reaches Feishu, its resident Task Card
 * binding is dropped without a write to the card, its Typing settles without
 * a request, `read` still shows its history and an `events` record says what
 * happened; the mark survives a restart; the bot added back lifts it; and
 * Feishu's own 230045 marks a chat whose event we never saw.
 */

import assert from "node:assert/strict";
import { DEFAULT_IDS as D, type Emulator, startEmulator } from "../lib/emulator/mod.ts";
import { type Bridge, until } from "./_inbound.ts";
import { presenceDrained } from "./_outbound.ts";
import { agentDir, cardShowing, type Rec, start, storeRows, taskStatus } from "./_taskcards.ts";

/** The message writes (sends, replies, edits, reactions) the emulator has been asked for. */
const writes = (emu: Emulator) =>
  emu.requests().filter((r) => r.method !== "GET" && r.path.startsWith("/open-apis/im/"));

/** Alice @-mentions the bot in the Team group; resolves with the message id once the agent woke. */
async function mentionInTeam(emu: Emulator, bridge: Bridge, text: string): Promise<string> {
  const woken = bridge.channel.items.length;
  const { messageId } = emu.userSends({
    user: D.alice.openId,
    chat: D.team,
    text: `@bot ${text}`,
    mentions: ["bot"],
  });
  await bridge.channel.atLeast(woken + 1);
  return messageId!;
}

const goneChats = async (bridge: Bridge) => (await bridge.account()).gone_chats;

/** Every way the agent may write to the Team group, each refused. */
async function assertRefused(bridge: Bridge, messageId: string, why: RegExp): Promise<void> {
  const ref = `main:${D.team}:${messageId}`;
  const outs = [
    await bridge.call("send", { receive_id: D.team, receive_id_type: "chat_id", text: "hi" }),
    await bridge.call("reply", { message_id: ref, text: "hi" }),
    await bridge.call("react", { message_id: ref, operation: "add", emoji_type: "SMILE" }),
  ];
  for (const out of outs) {
    assert.equal(out.error_code, "TARGET_REVOKED", JSON.stringify(out));
    assert.equal(out.retryable, false);
    assert.match(String(out.message), new RegExp(`Chat '${D.team}'`));
    assert.match(String(out.message), why);
  }
}

Deno.test("chats gone: a dissolved group refuses every write before any request, drops its Task Card binding and Typing, keeps its history, across a restart", async () => {
  await using emu = await startEmulator();
  const workdir = await agentDir();
  let bridge = await start(emu, workdir);
  try {
    await emu.ws.whenReady();
    const asked = await mentionInTeam(emu, bridge, "build it");
    await cardShowing(emu, D.team, (f) => f.startsWith("📋 ACTIVITIES"));
    await until(
      () =>
        Promise.resolve(
          storeRows(workdir, `SELECT 1 FROM task_cards WHERE chat_id = '${D.team}'`)
            .length === 1,
        ),
      { what: "the Team card bound" },
    );
    await emu.waitFor(() => emu.reactions(asked).some((r) => r.emojiType === "Typing"), {
      description: "the Typing",
    });
    await presenceDrained(() => bridge.server.resource("lingtai://status"));

    const atDissolve = writes(emu).length;
    emu.dissolveChat({ chat: D.team, operator: D.alice.openId });
    await until(async () => (await goneChats(bridge)) === 1, { what: "the chat marked gone" });
    const event = await until(async () =>
      (await bridge.records("events")).find((e) => e.event_type === "chat_disbanded")
    );
    assert.equal((event.event as Rec).chat_id, D.team);
    assert.deepEqual(
      storeRows(workdir, `SELECT * FROM task_cards WHERE chat_id = '${D.team}'`),
      [],
      "the binding is dropped",
    );
    assert.equal((await taskStatus(bridge)).routes, 0);
    await until(async () => (await bridge.account()).typing_pending === 0, {
      what: "the Typing settled",
    });
    await presenceDrained(() => bridge.server.resource("lingtai://status"));
    assert.equal(writes(emu).length, atDissolve, "the Typing went without a request");
    assert.ok(emu.reactions(asked).some((r) => r.emojiType === "Typing"), "left on Feishu");

    await assertRefused(bridge, asked, /was dissolved on \d{4}-/);
    assert.equal(writes(emu).length, atDissolve, "no write reached Feishu");
    assert.ok((await bridge.records(D.team)).some((r) => r.feishu_message_id === asked));

    await bridge.close();
    bridge = await start(emu, workdir);
    assert.equal(await goneChats(bridge), 1, "the mark survives a restart");
    const afterRestart = writes(emu).length;
    await assertRefused(bridge, asked, /was dissolved/);
    assert.equal(writes(emu).length, afterRestart, "no write reached Feishu after the restart");
  } finally {
    await bridge.close();
  }
});

Deno.test("chats gone: the bot removed refuses writes fast; added back, a send works again", async () => {
  await using emu = await startEmulator();
  const workdir = await agentDir();
  const bridge = await start(emu, workdir);
  try {
    await emu.ws.whenReady();
    const asked = await mentionInTeam(emu, bridge, "hello");
    // The card's first send is out before the bot goes (one already on its way is Feishu's).
    await cardShowing(emu, D.team, (f) => f.startsWith("📋 ACTIVITIES"));
    emu.removeBotFromChat({ chat: D.team, operator: D.alice.openId });
    await until(async () => (await goneChats(bridge)) === 1, { what: "the chat marked gone" });
    await presenceDrained(() => bridge.server.resource("lingtai://status"));
    const before = writes(emu).length;
    await assertRefused(bridge, asked, /no longer has the bot \(removed\)/);
    assert.equal(writes(emu).length, before, "no write reached Feishu");

    emu.addBotToChat({ chat: D.team, operator: D.alice.openId });
    await until(async () => (await goneChats(bridge)) === 0, { what: "the mark lifted" });
    const out = await bridge.call("send", {
      receive_id: D.team,
      receive_id_type: "chat_id",
      text: "back again",
    });
    assert.equal(out.status, "sent", JSON.stringify(out));
  } finally {
    await bridge.close();
  }
});

Deno.test("chats gone: Feishu's 230045 for a send marks the chat, so the next send fails before any request", async () => {
  await using emu = await startEmulator();
  const workdir = await agentDir();
  const bridge = await start(emu, workdir);
  try {
    await emu.ws.whenReady();
    emu.faults.add({
      method: "POST",
      path: "/open-apis/im/v1/messages",
      times: 1,
      respond: { code: 230045, msg: "The chat has been dissolved." },
    });
    const send = () =>
      bridge.call("send", { receive_id: D.team, receive_id_type: "chat_id", text: "anyone?" });
    const first = await send();
    assert.equal(first.error_code, "TARGET_REVOKED", JSON.stringify(first));
    assert.equal(await goneChats(bridge), 1);
    const before = emu.requests({ method: "POST", path: "/open-apis/im/v1/messages" }).length;
    const second = await send();
    assert.equal(second.error_code, "TARGET_REVOKED");
    assert.match(String(second.message), /was dissolved/);
    assert.equal(
      emu.requests({ method: "POST", path: "/open-apis/im/v1/messages" }).length,
      before,
      "the second send made no request",
    );
  } finally {
    await bridge.close();
  }
});
