import assert from "node:assert/strict";
import { sdkClient, startWs } from "./testdata/sdk_harness.ts";
import { DEFAULT_IDS, makeUser, startEmulator } from "./mod.ts";
import { createEmulator } from "./emulator.ts";

const D = DEFAULT_IDS;
const noop = () => undefined;
// deno-lint-ignore no-explicit-any
type Ev = Record<string, any>;

/** The `event` of the last pushed envelope (no connection needed: it is queued). */
function lastEvent(emu: ReturnType<typeof createEmulator>): Ev {
  return emu.events().at(-1)!.envelope.event as Ev;
}

Deno.test("userSends() builds receive_v1 content for every message type", async () => {
  await using emu = createEmulator();
  const bytes = new Uint8Array([1, 2, 3]);
  const base = { user: D.alice.openId, chat: D.team };
  const cases: [string, Parameters<typeof emu.userSends>[0], (c: Ev) => void][] = [
    ["text", { ...base, text: "hi" }, (c) => assert.deepEqual(c, { text: "hi" })],
    [
      "post",
      { ...base, post: { title: "T", content: [[{ tag: "text", text: "x" }]] } },
      (c) => assert.deepEqual(c, { title: "T", content: [[{ tag: "text", text: "x" }]] }),
    ],
    ["image", { ...base, image: { bytes } }, (c) => assert.match(c.image_key, /^img_v3_/)],
    [
      "file",
      { ...base, file: { bytes, name: "a.txt" } },
      (c) => assert.equal(c.file_name, "a.txt"),
    ],
    ["audio", { ...base, audio: { bytes, duration: 2500 } }, (c) => assert.equal(c.duration, 2500)],
    ["media", { ...base, video: { bytes, name: "v.mp4", duration: 9 } }, (c) => {
      assert.match(c.file_key, /^file_v3_/);
      assert.match(c.image_key, /^img_v3_/);
    }],
    ["sticker", { ...base, sticker: {} }, (c) => assert.match(c.file_key, /^file_v3_/)],
    ["share_chat", { ...base, shareChat: D.topics }, (c) => assert.equal(c.chat_id, D.topics)],
    [
      "share_user",
      { ...base, shareUser: D.bob.openId },
      (c) => assert.equal(c.user_id, D.bob.openId),
    ],
    [
      "interactive",
      { ...base, interactive: { elements: [] } },
      (c) => assert.deepEqual(c, { elements: [] }),
    ],
  ];
  for (const [type, input, check] of cases) {
    const sent = emu.userSends(input);
    const ev = lastEvent(emu);
    assert.equal(ev.message.message_type, type);
    assert.equal(ev.message.message_id, sent.messageId);
    check(JSON.parse(ev.message.content));
    const stored = emu.world.messages.get(sent.messageId!)!;
    for (const key of stored.resources) assert.ok(emu.world.uploads.has(key), `${type} resource`);
  }
});

Deno.test("userSends() writes mentions as @_user_N and @_all placeholders with mention objects", async () => {
  await using emu = createEmulator();
  emu.userSends({
    user: D.alice.openId,
    chat: D.team,
    text: "look",
    mentions: ["bot", D.bob.openId, "all"],
  });
  const ev = lastEvent(emu);
  assert.equal(JSON.parse(ev.message.content).text, "@_all @_user_1 @_user_2 look");
  assert.deepEqual(ev.message.mentions.map((m: Ev) => [m.key, m.id.open_id, m.name]), [
    ["@_user_1", D.botOpenId, D.botName],
    ["@_user_2", D.bob.openId, "Bob"],
  ]);
  assert.deepEqual(ev.sender.sender_id, {
    union_id: D.alice.unionId,
    user_id: D.alice.userId,
    open_id: D.alice.openId,
  });
  assert.equal(ev.message.chat_type, "group");
});

Deno.test("userSends() in a topic group reports chat_type group with a thread_id; replies keep it", async () => {
  await using emu = createEmulator();
  const topic = emu.userSends({ user: D.alice.openId, chat: D.topics, text: "new topic" });
  const first = lastEvent(emu).message;
  assert.equal(first.chat_type, "group");
  assert.match(first.thread_id, /^omt_/);
  emu.userSends({ user: D.bob.openId, chat: D.topics, text: "reply", replyTo: topic.messageId });
  const reply = lastEvent(emu).message;
  assert.deepEqual([reply.thread_id, reply.root_id, reply.parent_id], [
    first.thread_id,
    topic.messageId,
    topic.messageId,
  ]);
  assert.throws(() => emu.userSends({ user: D.alice.openId, chat: D.bobP2p, text: "x" }), /member/);
});

Deno.test("clickCard() awaits the ACK, records the toast and applies a raw card to the message", async () => {
  await using emu = await startEmulator();
  const client = sdkClient(emu);
  const seen: Ev[] = [];
  await using _ws = startWs(emu, {
    "card.action.trigger": (data) => {
      seen.push(data);
      return {
        toast: {
          type: "success",
          content: "Approved",
          i18n: { zh_cn: "已批准", en_us: "Approved" },
        },
        card: {
          type: "raw",
          data: { schema: "2.0", body: { elements: [{ tag: "markdown", content: "done" }] } },
        },
      };
    },
  });
  await emu.ws.whenReady();
  const card = await client.im.v1.message.create({
    params: { receive_id_type: "chat_id" },
    data: {
      receive_id: D.team,
      msg_type: "interactive",
      content: JSON.stringify({
        schema: "2.0",
        body: { elements: [{ tag: "button", text: { tag: "plain_text", content: "Go" } }] },
      }),
    },
  });
  const id = card.data!.message_id!;
  const click = emu.clickCard({
    user: D.bob.openId,
    messageId: id,
    value: { action: "approve" },
    name: "go_btn",
  });
  const result = await click.result;
  assert.equal(result.toast?.content, "Approved");
  assert.equal(result.applied, true);
  const stored = emu.world.messages.get(id)!;
  assert.equal(JSON.parse(stored.content).body.elements[0].content, "done");
  assert.equal(stored.updated, true);
  assert.equal(seen[0]?.action.value.action, "approve");
  assert.equal(seen[0]?.action.name, "go_btn");
  assert.equal(seen[0]?.context.open_message_id, id);
  assert.equal(seen[0]?.operator.open_id, D.bob.openId);
  assert.match(String(seen[0]?.create_time), /^\d{16}$/);
  assert.equal(emu.cardResults().length, 1);
});

Deno.test("removeBotFromChat() pushes bot.deleted_v1 and later sends answer 230002 until the bot is added back", async () => {
  await using emu = await startEmulator();
  const client = sdkClient(emu);
  await using ws = startWs(emu, {
    "im.chat.member.bot.deleted_v1": noop,
    "im.chat.member.bot.added_v1": noop,
  });
  await emu.ws.whenReady();
  await emu.removeBotFromChat({ chat: D.team, operator: D.alice.openId }).ack;
  assert.equal((ws.seen[0]?.data as Ev).chat_id, D.team);
  const send = () =>
    client.im.v1.message.create({
      params: { receive_id_type: "chat_id" },
      data: { receive_id: D.team, msg_type: "text", content: JSON.stringify({ text: "x" }) },
    }).then((r) => r.code, (e) => e.response?.data?.code);
  assert.equal(await send(), 230002);
  assert.throws(() => emu.userSends({ user: D.alice.openId, chat: D.team, text: "hello?" }), /not/);
  await emu.addBotToChat({ chat: D.team, operator: D.alice.openId }).ack;
  assert.equal(ws.seen[1]?.type, "im.chat.member.bot.added_v1");
  assert.equal(await send(), 0);
});

Deno.test("reactions, reads and recalls push their events with Feishu's shapes", async () => {
  await using emu = await startEmulator();
  await using ws = startWs(emu, {
    "im.message.reaction.created_v1": noop,
    "im.message.reaction.deleted_v1": noop,
    "im.message.message_read_v1": noop,
    "im.message.recalled_v1": noop,
  });
  await emu.ws.whenReady();
  const msg = emu.userSends({ user: D.alice.openId, chat: D.team, text: "hi" });
  await emu.userReacts({ user: D.bob.openId, messageId: msg.messageId!, emoji: "THUMBSUP" }).ack;
  await emu.userUnreacts({ user: D.bob.openId, messageId: msg.messageId!, emoji: "THUMBSUP" }).ack;
  await emu.userReads({ user: D.bob.openId, messageIds: [msg.messageId!] }).ack;
  await emu.recall({ messageId: msg.messageId!, push: true })!.ack;
  const [created, deleted, read, recalled] = ws.seen.map((s) => s.data as Ev);
  assert.equal(created?.reaction_type.emoji_type, "THUMBSUP");
  assert.equal(created?.operator_type, "user");
  assert.equal(created?.user_id.open_id, D.bob.openId);
  assert.equal(deleted?.event_type, "im.message.reaction.deleted_v1");
  assert.deepEqual(read?.message_id_list, [msg.messageId]);
  assert.equal(read?.reader.reader_id.open_id, D.bob.openId);
  assert.deepEqual([recalled?.message_id, recalled?.chat_id, recalled?.recall_type], [
    msg.messageId,
    D.team,
    "message_owner",
  ]);
  assert.deepEqual(emu.reactions(msg.messageId!), []);
});

Deno.test("userSends({createTime}) pushes a message with its own time; the chat's history lists it by that time", async () => {
  await using emu = createEmulator();
  const base = { user: D.alice.openId, chat: D.aliceP2p };
  const later = emu.userSends({ ...base, text: "later", createTime: 1_785_000_000_700 });
  assert.equal(lastEvent(emu).message.create_time, "1785000000700");
  const earlier = emu.userSends({ ...base, text: "earlier", createTime: 1_785_000_000_200 });
  assert.equal(lastEvent(emu).message.create_time, "1785000000200");
  assert.deepEqual(
    emu.messages(D.aliceP2p).map((m) => m.messageId),
    [earlier.messageId, later.messageId],
  );
});

Deno.test("userEntersP2p() creates a first DM when missing and pushes bot_p2p_chat_entered_v1 with the chat's newest message", async () => {
  await using emu = await startEmulator();
  await using ws = startWs(emu, { "im.chat.access_event.bot_p2p_chat_entered_v1": noop });
  await emu.ws.whenReady();
  emu.world.addUser(makeUser({
    openId: "ou_carol",
    unionId: "on_carol",
    userId: "carol",
    name: "Carol",
    email: "c@e",
  }));
  const first = emu.userEntersP2p({ user: "ou_carol" });
  await first.ack;
  const chat = emu.world.chats.get(first.chatId);
  assert.equal(chat?.mode, "p2p");
  assert.deepEqual(chat?.members, ["ou_carol"]);
  const seen = ws.seen[0]?.data as Ev;
  assert.equal(ws.seen[0]?.type, "im.chat.access_event.bot_p2p_chat_entered_v1");
  assert.equal(seen.chat_id, first.chatId);
  assert.deepEqual(seen.operator_id, {
    open_id: "ou_carol",
    union_id: "on_carol",
    user_id: "carol",
  });
  assert.equal(seen.last_message_id, "");
  assert.equal(seen.last_message_create_time, "");
  const said = emu.userSends({ user: "ou_carol", chat: first.chatId, text: "hi" });
  const again = emu.userEntersP2p({ user: "ou_carol" });
  await again.ack;
  assert.equal(again.chatId, first.chatId);
  assert.equal((ws.seen[1]?.data as Ev).last_message_id, said.messageId);
  assert.equal(emu.events({ type: "im.chat.access_event.bot_p2p_chat_entered_v1" }).length, 2);
  assert.throws(() => emu.userEntersP2p({ user: "ou_nobody" }), /known user/);
});
