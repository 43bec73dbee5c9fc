import assert from "node:assert/strict";
import { sdkClient } from "./testdata/sdk_harness.ts";
import { DEFAULT_IDS, type Emulator, startEmulator } from "./mod.ts";
import { createEmulator } from "./emulator.ts";

const D = DEFAULT_IDS;
// deno-lint-ignore no-explicit-any
type Ev = Record<string, any>;

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

/** The receive events pushed to an app, oldest first. */
const received = (emu: Emulator, appId: string) =>
  emu.events({ type: "im.message.receive_v1" }).filter((e) => e.appId === appId)
    .map((e) => e.envelope.event as Ev);

Deno.test("an app's group message through the Open API reaches the bots it @-mentions, as sender_type app", async () => {
  await using emu = await startEmulator();
  withOtherBot(emu);
  const other = sdkClient(emu, OTHER.appSecret, OTHER.appId);
  const send = (text: string) =>
    other.im.v1.message.create({
      params: { receive_id_type: "chat_id" },
      data: { receive_id: D.team, msg_type: "text", content: JSON.stringify({ text }) },
    });
  const sent = await send(`<at user_id="${D.botOpenId}">EmuBot</at> your turn`);
  assert.equal(sent.code, 0);
  const [event, ...rest] = received(emu, D.appId);
  assert.equal(rest.length, 0);
  assert.deepEqual(event!.sender, {
    sender_id: { union_id: OTHER.botUnionId, user_id: "", open_id: OTHER.botOpenId },
    sender_type: "app",
    tenant_key: D.tenantKey,
  });
  assert.equal(event!.message.message_id, sent.data?.message_id);
  assert.equal(event!.message.chat_type, "group");
  assert.equal(event!.message.content, JSON.stringify({ text: "@_user_1 your turn" }));
  assert.deepEqual(event!.message.mentions.map((m: Ev) => [m.key, m.id.open_id, m.name]), [
    ["@_user_1", D.botOpenId, "EmuBot"],
  ]);
  // The sender never gets its own message.
  assert.equal(received(emu, OTHER.appId).length, 0);

  // Without a mention nothing is pushed, unless the emulator delivers every bot message.
  await send("talking to myself");
  assert.equal(received(emu, D.appId).length, 1);
  emu.settings.botMessages = "all";
  await send("now everyone hears");
  assert.equal(received(emu, D.appId).length, 2);
});

Deno.test("our app's message mentioning another bot is pushed to that bot; a bot outside the chat gets nothing", async () => {
  await using emu = await startEmulator();
  withOtherBot(emu);
  const ours = sdkClient(emu);
  const text = `<at user_id="${OTHER.botOpenId}">OtherBot</at> ping`;
  await ours.im.v1.message.create({
    params: { receive_id_type: "chat_id" },
    data: { receive_id: D.team, msg_type: "text", content: JSON.stringify({ text }) },
  });
  const [event] = received(emu, OTHER.appId);
  assert.equal(event?.sender.sender_id.open_id, D.botOpenId);
  assert.equal(event?.sender.sender_type, "app");
  // The Topics group has only our bot: a mention of the other one reaches nobody.
  await ours.im.v1.message.create({
    params: { receive_id_type: "chat_id" },
    data: { receive_id: D.topics, msg_type: "text", content: JSON.stringify({ text }) },
  });
  assert.equal(received(emu, OTHER.appId).length, 1);
});

Deno.test("botSends() posts as another app with mentions by app id, and refuses a chat its bot is not in", async () => {
  await using emu = createEmulator();
  withOtherBot(emu);
  const sent = emu.botSends({ app: OTHER.appId, chat: D.team, text: "hello", mention: [D.appId] });
  const stored = emu.world.messages.get(sent.messageId)!;
  assert.deepEqual(stored.sender, { type: "app", id: OTHER.appId });
  assert.equal(stored.content, JSON.stringify({ text: "@_user_1 hello" }));
  assert.equal(sent.eventIds.length, 1);
  assert.equal(received(emu, D.appId)[0]?.message.message_id, sent.messageId);
  // A user mentioned (not a bot): nothing pushed.
  const plain = emu.botSends({
    app: OTHER.appId,
    chat: D.team,
    text: "hi Alice",
    mention: [D.alice.openId],
  });
  assert.deepEqual(plain.eventIds, []);
  assert.throws(
    () => emu.botSends({ app: OTHER.appId, chat: D.topics, text: "x" }),
    /Expected the bot of cli_0f0f0f0f0f0f0f0f in oc_emu_topics/,
  );
});

Deno.test("POST /__emu/api/bot_send scripts another bot's message", async () => {
  await using emu = createEmulator();
  withOtherBot(emu);
  const res = await emu.handle(
    new Request("http://x/__emu/api/bot_send", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        app_id: OTHER.appId,
        chat_id: D.team,
        text: "over to you",
        mention: [D.botOpenId],
      }),
    }),
  );
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.equal(body.event_ids.length, 1);
  assert.equal(received(emu, D.appId)[0]?.message.message_id, body.message_id);
});
