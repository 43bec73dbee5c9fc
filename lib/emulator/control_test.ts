import assert from "node:assert/strict";
import { startWs } from "./testdata/sdk_harness.ts";
import { DEFAULT_IDS, type Emulator, startEmulator } from "./mod.ts";
import { createEmulator } from "./emulator.ts";
import { WEB_ASSETS } from "./web/mod.ts";

const D = DEFAULT_IDS;

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

Deno.test("control plane state lists the app, users and chats with bot membership", async () => {
  await using emu = createEmulator();
  emu.world.chats.get(D.team)?.bots.delete(D.appId);
  const [status, state] = await call(emu, "/__emu/api/state");
  assert.equal(status, 200);
  assert.deepEqual(state.app, { app_id: D.appId, bot_open_id: D.botOpenId, bot_name: D.botName });
  assert.deepEqual(state.users, [{ open_id: D.alice.openId, name: "Alice" }, {
    open_id: D.bob.openId,
    name: "Bob",
  }]);
  const chats = state.chats as {
    chat_id: string;
    chat_mode: string;
    bot_member: boolean;
    members: string[];
  }[];
  assert.deepEqual(chats.map((c) => [c.chat_id, c.chat_mode, c.bot_member]), [
    [D.aliceP2p, "p2p", true],
    [D.bobP2p, "p2p", true],
    [D.team, "group", false],
    [D.topics, "topic", true],
  ]);
  assert.deepEqual(chats[2]?.members, [D.alice.openId, D.bob.openId]);
});

Deno.test("control plane send stores the message, pushes an event and lists it with parsed content", async () => {
  await using emu = createEmulator();
  const [, sent] = await call(emu, "/__emu/api/send", {
    user_id: D.alice.openId,
    chat_id: D.team,
    text: "hello",
    mention_bot: true,
  });
  assert.match(String(sent.message_id), /^om_/);
  assert.equal(emu.event(String(sent.event_id))?.eventType, "im.message.receive_v1");
  const [, img] = await call(emu, "/__emu/api/send", {
    user_id: D.bob.openId,
    chat_id: D.team,
    image: { base64: btoa("\x89PNG-bytes") },
    reply_to: sent.message_id,
  });
  await call(emu, "/__emu/api/react", {
    user_id: D.bob.openId,
    message_id: sent.message_id,
    emoji_type: "OK",
  });
  const [, list] = await call(emu, `/__emu/api/chats/${D.team}/messages`);
  // deno-lint-ignore no-explicit-any
  const items = list.items as Record<string, any>[];
  assert.equal(items.length, 2);
  assert.deepEqual(items[0]?.content, { text: "@_user_1 hello" });
  assert.deepEqual(items[0]?.sender, { type: "user", id: D.alice.openId, name: "Alice" });
  assert.deepEqual(items[0]?.mentions, [{
    key: "@_user_1",
    id: D.botOpenId,
    id_type: "open_id",
    name: D.botName,
  }]);
  assert.deepEqual(items[0]?.reactions.map((r: { emoji_type: string }) => r.emoji_type), ["OK"]);
  assert.equal(items[1]?.message_id, img.message_id);
  assert.equal(items[1]?.parent_id, sent.message_id);
  const res = await emu.handle(
    new Request(`http://x/__emu/api/resource/${items[1]?.content.image_key}`),
  );
  assert.deepEqual([...new Uint8Array(await res.arrayBuffer())].slice(0, 4), [
    0x89,
    0x50,
    0x4e,
    0x47,
  ]);
  assert.equal(res.headers.get("content-type"), "image/png");
});

Deno.test("control plane send into a chat without the bot stores the message but pushes nothing", async () => {
  await using emu = createEmulator();
  emu.world.chats.get(D.team)?.bots.delete(D.appId);
  const [status, sent] = await call(emu, "/__emu/api/send", {
    user_id: D.alice.openId,
    chat_id: D.team,
    text: "psst",
  });
  assert.equal(status, 200);
  assert.equal(sent.event_id, null);
  assert.equal(emu.events().length, 0);
  const [bad, err] = await call(emu, "/__emu/api/send", {
    user_id: D.alice.openId,
    chat_id: D.bobP2p,
    text: "x",
  });
  assert.equal(bad, 400);
  assert.match(String(err.error), /member/);
});

Deno.test("control plane click waits for the ACK and answers the toast", async () => {
  await using emu = await startEmulator();
  await using _ws = startWs(emu, {
    "card.action.trigger": () => ({ toast: { type: "info", content: "Got it" } }),
  });
  await emu.ws.whenReady();
  const card = emu.userSends({
    user: D.alice.openId,
    chat: D.team,
    interactive: { elements: [{ tag: "button" }] },
  });
  const res = await fetch(`${emu.url}/__emu/api/click`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      user_id: D.bob.openId,
      message_id: card.messageId,
      value: { k: 1 },
      tag: "button",
    }),
  });
  const body = await res.json();
  assert.equal(body.ack.code, 200);
  assert.deepEqual(body.toast, { type: "info", content: "Got it" });
  const [, list] = await call(emu, `/__emu/api/chats/${D.team}/messages`);
  assert.deepEqual((list.items as { toast?: unknown }[])[0]?.toast, {
    type: "info",
    content: "Got it",
  });
});

Deno.test("control plane stream sends one change event per state change", async () => {
  await using emu = createEmulator();
  const res = await emu.handle(new Request("http://x/__emu/api/stream"));
  assert.equal(res.headers.get("content-type"), "text/event-stream; charset=utf-8");
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  assert.equal((await reader.read()).value, ": connected\n\n");
  const sent = emu.userSends({ user: D.alice.openId, chat: D.team, text: "live" });
  const chunk = (await reader.read()).value ?? "";
  assert.match(chunk, /^event: change\ndata: /);
  assert.deepEqual(JSON.parse(chunk.split("data: ")[1]!), {
    kind: "message.created",
    chat_id: D.team,
    message_id: sent.messageId,
  });
  await reader.cancel();
});

Deno.test("control plane serves the embedded page at / and /web/<name>", async () => {
  await using emu = createEmulator();
  const page = await emu.handle(new Request("http://x/"));
  assert.equal(await page.text(), WEB_ASSETS["index.html"]?.body);
  assert.equal((await emu.handle(new Request("http://x/web/index.html"))).status, 200);
  assert.equal((await emu.handle(new Request("http://x/web/missing.js"))).status, 404);
});

Deno.test("control plane refuses a POST whose body is not declared JSON, and stores nothing", async () => {
  await using emu = createEmulator();
  const before = emu.messages(D.aliceP2p).length;
  for (const type of ["text/plain", "application/x-www-form-urlencoded", null]) {
    const res = await emu.handle(
      new Request("http://x/__emu/api/send", {
        method: "POST",
        headers: type ? { "content-type": type } : {},
        body: new TextEncoder().encode(
          JSON.stringify({ user_id: D.alice.openId, chat_id: D.aliceP2p, text: "forged" }),
        ),
      }),
    );
    assert.equal(res.status, 415, String(type));
    assert.match((await res.json()).error, /application\/json/);
  }
  assert.equal(emu.messages(D.aliceP2p).length, before);
  const [status] = await call(emu, "/__emu/api/send", {
    user_id: D.alice.openId,
    chat_id: D.aliceP2p,
    text: "real",
  });
  assert.equal(status, 200);
  assert.equal(emu.messages(D.aliceP2p).length, before + 1);
});

Deno.test("control plane p2p_entered opens a user's DM with the bot and pushes the entered event", async () => {
  await using emu = createEmulator();
  const [status, out] = await call(emu, "/__emu/api/p2p_entered", { user_id: D.bob.openId });
  assert.equal(status, 200);
  assert.equal(out.chat_id, D.bobP2p);
  const event = emu.event(String(out.event_id));
  assert.equal(event?.envelope.header.event_type, "im.chat.access_event.bot_p2p_chat_entered_v1");
  assert.deepEqual((event?.envelope.event as Record<string, unknown>).chat_id, D.bobP2p);
  const [bad] = await call(emu, "/__emu/api/p2p_entered", { user_id: "ou_nobody" });
  assert.equal(bad, 400);
});
