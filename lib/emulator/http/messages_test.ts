import assert from "node:assert/strict";
import { codeOf, sdkClient } from "../testdata/sdk_harness.ts";
import { DEFAULT_IDS, makeUser, ManualEmuClock, startEmulator } from "../mod.ts";

const D = DEFAULT_IDS;
const text = (t: string) => JSON.stringify({ text: t });

Deno.test("message.create resolves every receive_id_type to the right chat", async () => {
  await using emu = await startEmulator();
  const client = sdkClient(emu);
  const cases = [
    { type: "open_id", id: D.alice.openId, chat: D.aliceP2p },
    { type: "user_id", id: D.alice.userId, chat: D.aliceP2p },
    { type: "union_id", id: D.bob.unionId, chat: D.bobP2p },
    { type: "email", id: D.bob.email, chat: D.bobP2p },
    { type: "chat_id", id: D.team, chat: D.team },
  ] as const;
  for (const c of cases) {
    const r = await client.im.v1.message.create({
      params: { receive_id_type: c.type },
      data: { receive_id: c.id, msg_type: "text", content: text(c.type) },
    });
    assert.equal(r.data?.chat_id, c.chat, c.type);
    assert.equal(r.data?.sender?.sender_type, "app");
    assert.equal(r.data?.sender?.id, D.appId);
  }
  assert.deepEqual(emu.messages(D.bobP2p).map((m) => JSON.parse(m.content).text), [
    "union_id",
    "email",
  ]);
});

Deno.test("message.create opens a p2p chat for a user who has none and refuses unavailable users", async () => {
  await using emu = await startEmulator();
  emu.world.addUser(
    makeUser({
      openId: "ou_carol",
      unionId: "on_carol",
      userId: "carol",
      name: "Carol",
      email: "c@e",
    }),
  );
  emu.world.addUser({
    ...makeUser({ openId: "ou_dan", unionId: "on_dan", userId: "dan", name: "Dan", email: "d@e" }),
    available: false,
  });
  const client = sdkClient(emu);
  const r = await client.im.v1.message.create({
    params: { receive_id_type: "open_id" },
    data: { receive_id: "ou_carol", msg_type: "text", content: text("hi") },
  });
  const chat = emu.world.chats.get(r.data?.chat_id ?? "");
  assert.equal(chat?.mode, "p2p");
  assert.deepEqual(chat?.members, ["ou_carol"]);
  assert.equal(
    await codeOf(client.im.v1.message.create({
      params: { receive_id_type: "open_id" },
      data: { receive_id: "ou_dan", msg_type: "text", content: text("hi") },
    })),
    230013,
  );
});

Deno.test("message.create rejects bad targets and bad content with Feishu's codes", async () => {
  await using emu = await startEmulator({
    limits: { textBytes: 100, richBytes: 300, cardElements: 3 },
  });
  const client = sdkClient(emu);
  emu.world.chats.get(D.team)?.bots.delete(D.appId);
  const send = (type: string, id: string, msgType: string, content: string) =>
    codeOf(client.im.v1.message.create({
      params: { receive_id_type: type as "chat_id" },
      data: { receive_id: id, msg_type: msgType, content },
    }));
  const card = (n: number) =>
    JSON.stringify({
      schema: "2.0",
      body: { elements: Array.from({ length: n }, () => ({ tag: "markdown", content: "x" })) },
    });
  const cases: [string, Promise<number | undefined>, number][] = [
    ["bot not in chat", send("chat_id", D.team, "text", text("x")), 230002],
    ["unknown chat", send("chat_id", "oc_nope", "text", text("x")), 230001],
    ["id of another type", send("user_id", D.alice.openId, "text", text("x")), 230001],
    ["bad receive_id_type", send("phone", D.alice.openId, "text", text("x")), 99992402],
    ["content not JSON", send("chat_id", D.topics, "text", "{nope"), 230001],
    ["text without text", send("chat_id", D.topics, "text", "{}"), 230001],
    ["empty text", send("chat_id", D.topics, "text", text("  ")), 230001],
    ["text too long", send("chat_id", D.topics, "text", text("x".repeat(100))), 230025],
    [
      "post too long",
      send(
        "chat_id",
        D.topics,
        "post",
        JSON.stringify({ zh_cn: { content: [[{ tag: "text", text: "y".repeat(300) }]] } }),
      ),
      230025,
    ],
    [
      "post without locale",
      send("chat_id", D.topics, "post", JSON.stringify({ content: [] })),
      230001,
    ],
    [
      "post with unknown tag",
      send(
        "chat_id",
        D.topics,
        "post",
        JSON.stringify({ zh_cn: { content: [[{ tag: "blink" }]] } }),
      ),
      230001,
    ],
    [
      "card without elements",
      send("chat_id", D.topics, "interactive", JSON.stringify({ schema: "2.0", body: {} })),
      230099,
    ],
    ["card over the element limit", send("chat_id", D.topics, "interactive", card(4)), 230099],
    [
      "image key unknown",
      send("chat_id", D.topics, "image", JSON.stringify({ image_key: "img_v3_nope" })),
      230001,
    ],
    ["unknown msg_type", send("chat_id", D.topics, "hologram", "{}"), 230001],
  ];
  for (const [name, got, want] of cases) assert.equal(await got, want, name);
  assert.equal(await send("chat_id", D.topics, "interactive", card(3)), 0);
});

Deno.test("message.create turns <at> tags into mentions the way Feishu stores them", async () => {
  await using emu = await startEmulator();
  const client = sdkClient(emu);
  const r = await client.im.v1.message.create({
    params: { receive_id_type: "chat_id" },
    data: {
      receive_id: D.team,
      msg_type: "text",
      content: text(`<at user_id="${D.bob.openId}">Bob</at> and <at user_id="all">All</at> look`),
    },
  });
  assert.equal(r.data?.body?.content, JSON.stringify({ text: "@_user_1 and @_all look" }));
  assert.deepEqual(r.data?.mentions?.map((m) => [m.key, m.id, m.name]), [[
    "@_user_1",
    D.bob.openId,
    "Bob",
  ]]);
});

Deno.test("message.create with a repeated uuid answers the original message and creates nothing for one hour", async () => {
  const clock = new ManualEmuClock();
  await using emu = await startEmulator({ clock });
  const client = sdkClient(emu);
  const send = (t: string) =>
    client.im.v1.message.create({
      params: { receive_id_type: "chat_id" },
      data: { receive_id: D.team, msg_type: "text", content: text(t), uuid: "u-1" },
    });
  const first = await send("one");
  const again = await send("two");
  assert.equal(again.data?.message_id, first.data?.message_id);
  assert.equal(again.data?.body?.content, text("one"));
  assert.equal(emu.messages(D.team).length, 1);
  const reply = await client.im.v1.message.reply({
    path: { message_id: first.data?.message_id ?? "" },
    data: { msg_type: "text", content: text("r"), uuid: "u-1" },
  });
  assert.equal(reply.data?.message_id, first.data?.message_id);
  clock.advance(3_600_000);
  const later = await send("three");
  assert.notEqual(later.data?.message_id, first.data?.message_id);
  assert.equal(emu.messages(D.team).length, 2);
});

Deno.test("message.reply sets root and parent, and threads follow reply_in_thread and topic groups", async () => {
  await using emu = await startEmulator();
  const client = sdkClient(emu);
  const create = (chat: string) =>
    client.im.v1.message.create({
      params: { receive_id_type: "chat_id" },
      data: { receive_id: chat, msg_type: "text", content: text("root") },
    });
  const reply = (id: string, inThread?: boolean) =>
    client.im.v1.message.reply({
      path: { message_id: id },
      data: { msg_type: "text", content: text("re"), reply_in_thread: inThread },
    });
  const root = (await create(D.team)).data!;
  assert.equal(root.thread_id, undefined);
  const plain = (await reply(root.message_id!)).data!;
  assert.deepEqual([plain.root_id, plain.parent_id, plain.thread_id], [
    root.message_id,
    root.message_id,
    undefined,
  ]);
  const nested = (await reply(plain.message_id!)).data!;
  assert.deepEqual([nested.root_id, nested.parent_id], [root.message_id, plain.message_id]);
  const threaded = (await reply(root.message_id!, true)).data!;
  assert.match(threaded.thread_id ?? "", /^omt_/);
  assert.equal(emu.world.messages.get(root.message_id!)?.threadId, threaded.thread_id);
  const inside = (await reply(threaded.message_id!)).data!;
  assert.equal(inside.thread_id, threaded.thread_id);
  const topic = (await create(D.topics)).data!;
  assert.match(topic.thread_id ?? "", /^omt_/);
  const topicReply = (await reply(topic.message_id!)).data!;
  assert.equal(topicReply.thread_id, topic.thread_id);
});
