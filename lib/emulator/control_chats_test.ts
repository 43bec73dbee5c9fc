import assert from "node:assert/strict";
import { DEFAULT_IDS as D, type Emulator } from "./mod.ts";
import { createEmulator } from "./emulator.ts";

async function call(
  emu: Emulator,
  path: string,
  body?: unknown,
): Promise<[number, Record<string, unknown>]> {
  const res = await emu.handle(
    new Request(
      `http://x${path}`,
      body === undefined ? {} : {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      },
    ),
  );
  return [res.status, await res.json()];
}

function eventBody(emu: Emulator, id: unknown): Record<string, unknown> {
  const record = emu.event(String(id));
  assert.ok(record, `Expected an event ${id}`);
  return { type: record.eventType, ...record.envelope.event };
}

interface StateChat {
  chat_id: string;
  bot_member: boolean;
  dissolved: boolean;
  owner_id: string;
}

async function chatState(emu: Emulator, chatId: string): Promise<StateChat | undefined> {
  const [, state] = await call(emu, "/__emu/api/state");
  return (state.chats as StateChat[]).find((c) => c.chat_id === chatId);
}

Deno.test("control recall: the sender recalls their message and the bot gets im.message.recalled_v1", async () => {
  await using emu = createEmulator();
  const sent = emu.userSends({ user: D.bob.openId, chat: D.team, text: "oops" });
  const [status, body] = await call(emu, "/__emu/api/recall", {
    message_id: sent.messageId,
    user_id: D.bob.openId,
  });
  assert.equal(status, 200);
  assert.equal(body.recall_type, "message_owner");
  const event = eventBody(emu, body.event_id);
  assert.equal(event.type, "im.message.recalled_v1");
  assert.equal(event.message_id, sent.messageId);
  assert.equal(event.recall_type, "message_owner");
  const [, list] = await call(emu, `/__emu/api/chats/${D.team}/messages`);
  assert.equal((list.items as { deleted: boolean }[])[0]?.deleted, true);
  const [again, err] = await call(emu, "/__emu/api/recall", { message_id: sent.messageId });
  assert.equal(again, 400);
  assert.match(String(err.error), /recalled already/);
});

Deno.test("control recall: someone else's message only by the group's owner (group_owner), never a bot's", async () => {
  await using emu = createEmulator();
  const bobs = emu.userSends({ user: D.bob.openId, chat: D.team, text: "mine" });
  const alices = emu.userSends({ user: D.alice.openId, chat: D.team, text: "hers" });
  const [refused, err] = await call(emu, "/__emu/api/recall", {
    message_id: alices.messageId,
    user_id: D.bob.openId,
  });
  assert.equal(refused, 400);
  assert.match(String(err.error), /own the group/);
  assert.equal(emu.messages(D.team)[1]?.deleted, false);
  // Alice is the Team's owner (its first member).
  const [status, body] = await call(emu, "/__emu/api/recall", {
    message_id: bobs.messageId,
    user_id: D.alice.openId,
  });
  assert.equal(status, 200);
  assert.equal(eventBody(emu, body.event_id).recall_type, "group_owner");

  const bot = emu.world.addMessage({
    messageId: "om_from_bot",
    chatId: D.team,
    sender: { type: "app", id: D.appId },
    msgType: "text",
    content: JSON.stringify({ text: "from the bot" }),
    createTime: 1,
    updateTime: 1,
    deleted: false,
    updated: false,
    editCount: 0,
    resources: [],
    mentions: [],
  });
  const [botStatus, botErr] = await call(emu, "/__emu/api/recall", {
    message_id: bot.messageId,
    user_id: D.alice.openId,
  });
  assert.equal(botStatus, 400);
  assert.match(String(botErr.error), /sent by a bot/);
  const [missing] = await call(emu, "/__emu/api/recall", { message_id: "om_nope" });
  assert.equal(missing, 404);
});

Deno.test("control recall in a chat without the bot recalls it and pushes nothing", async () => {
  await using emu = createEmulator();
  const sent = emu.userSends({ user: D.alice.openId, chat: D.team, text: "quiet" });
  emu.world.chats.get(D.team)?.bots.delete(D.appId);
  const pushed = emu.events().length;
  const [status, body] = await call(emu, "/__emu/api/recall", { message_id: sent.messageId });
  assert.equal(status, 200);
  assert.equal(body.event_id, null);
  assert.equal(emu.messages(D.team)[0]?.deleted, true);
  assert.equal(emu.events().length, pushed);
});

Deno.test("control bot: a member removes and re-adds the bot; state and events follow", async () => {
  await using emu = createEmulator();
  const [status, removed] = await call(emu, `/__emu/api/chats/${D.team}/bot`, { present: false });
  assert.equal(status, 200);
  const gone = eventBody(emu, removed.event_id);
  assert.equal(gone.type, "im.chat.member.bot.deleted_v1");
  // No operator named: the owner, Alice.
  assert.equal((gone.operator_id as { open_id: string }).open_id, D.alice.openId);
  assert.equal((await chatState(emu, D.team))?.bot_member, false);
  const [twice, err] = await call(emu, `/__emu/api/chats/${D.team}/bot`, { present: false });
  assert.equal(twice, 400);
  assert.match(String(err.error), /Expected EmuBot to be in/);

  const [, added] = await call(emu, `/__emu/api/chats/${D.team}/bot`, {
    present: true,
    operator: D.bob.openId,
  });
  const back = eventBody(emu, added.event_id);
  assert.equal(back.type, "im.chat.member.bot.added_v1");
  assert.equal((back.operator_id as { open_id: string }).open_id, D.bob.openId);
  assert.equal((await chatState(emu, D.team))?.bot_member, true);
});

Deno.test("control bot refuses a p2p chat, an outsider, a missing flag and an unknown chat", async () => {
  await using emu = createEmulator();
  const cases: [string, unknown, number, RegExp][] = [
    [D.aliceP2p, { present: false }, 400, /p2p/],
    [D.aliceP2p.replace(/.$/, "x"), { present: false }, 404, /known chat_id/],
    [D.team, { present: "no" }, 400, /true or false/],
    [D.team, { present: false, operator: "ou_stranger" }, 400, /known user/],
  ];
  for (const [chat, body, want, message] of cases) {
    const [status, err] = await call(emu, `/__emu/api/chats/${chat}/bot`, body);
    assert.equal(status, want, JSON.stringify(body));
    assert.match(String(err.error), message);
  }
  assert.equal(emu.events().length, 0);
  assert.equal(emu.world.chats.get(D.team)?.bots.has(D.appId), true);
});

Deno.test("control dissolve: only the owner dissolves a group; state says dissolved and later moderation fails", async () => {
  await using emu = createEmulator();
  const sent = emu.userSends({ user: D.bob.openId, chat: D.team, text: "bye" });
  const path = `/__emu/api/chats/${D.team}/dissolve`;
  const [refused, err] = await call(emu, path, { operator: D.bob.openId });
  assert.equal(refused, 400);
  assert.match(String(err.error), /owner/);
  assert.equal((await chatState(emu, D.team))?.dissolved, false);
  assert.equal((await chatState(emu, D.team))?.owner_id, D.alice.openId);

  const [status, body] = await call(emu, path, {});
  assert.equal(status, 200);
  const ids = body.event_ids as string[];
  assert.deepEqual(ids.map((id) => eventBody(emu, id).type), ["im.chat.disbanded_v1"]);
  const after = await chatState(emu, D.team);
  assert.deepEqual([after?.bot_member, after?.dissolved], [false, true]);
  for (
    const [p, b] of [
      [path, {}],
      [`/__emu/api/chats/${D.team}/bot`, { present: true }],
      ["/__emu/api/recall", { message_id: sent.messageId }],
    ] as const
  ) {
    const [code, e] = await call(emu, p, b);
    assert.equal(code, 400, p);
    assert.match(String(e.error), /dissolved/);
  }
  const [p2p, e] = await call(emu, `/__emu/api/chats/${D.aliceP2p}/dissolve`, {});
  assert.equal(p2p, 400);
  assert.match(String(e.error), /p2p/);
});

Deno.test("control moderation endpoints refuse a POST not declared JSON", async () => {
  await using emu = createEmulator();
  const sent = emu.userSends({ user: D.alice.openId, chat: D.team, text: "x" });
  for (
    const [path, body] of [
      ["/__emu/api/recall", { message_id: sent.messageId }],
      [`/__emu/api/chats/${D.team}/bot`, { present: false }],
      [`/__emu/api/chats/${D.team}/dissolve`, {}],
    ] as const
  ) {
    const res = await emu.handle(
      new Request(`http://x${path}`, {
        method: "POST",
        headers: { "content-type": "text/plain" },
        body: JSON.stringify(body),
      }),
    );
    assert.equal(res.status, 415, path);
    await res.body?.cancel();
  }
  const chat = emu.world.chats.get(D.team);
  assert.deepEqual([chat?.dissolvedAt, chat?.bots.size, emu.messages(D.team)[0]?.deleted], [
    undefined,
    1,
    false,
  ]);
});
