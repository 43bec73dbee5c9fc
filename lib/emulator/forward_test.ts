import assert from "node:assert/strict";
import { codeOf, downloadRefusalCode, readAll, sdkClient } from "./testdata/sdk_harness.ts";
import { DEFAULT_IDS, startEmulator } from "./mod.ts";

const D = DEFAULT_IDS;

Deno.test("a forward reads with its messages, nested ones depth first, each naming its container", async () => {
  await using emu = await startEmulator();
  const client = sdkClient(emu);
  const image = crypto.getRandomValues(new Uint8Array(64));
  const fwd = emu.userForwards({
    user: D.alice.openId,
    chat: D.aliceP2p,
    messages: [
      { user: D.bob.openId, text: "one", createTime: 1_000 },
      {
        user: D.alice.openId,
        forward: [{ user: D.appId, text: "from a bot" }, {
          user: D.bob.openId,
          image: { bytes: image },
        }],
      },
      { user: D.bob.userId, text: "three" },
    ],
  });
  const got = await client.im.v1.message.get({ path: { message_id: fwd.messageId! } });
  const items = got.data!.items!;
  assert.deepEqual(items.map((i) => i.msg_type), [
    "merge_forward",
    "text",
    "merge_forward",
    "text",
    "image",
    "text",
  ]);
  const [top, one, inner, bot, img, three] = items;
  assert.equal(top!.message_id, fwd.messageId);
  assert.equal(top!.upper_message_id, undefined);
  assert.deepEqual(JSON.parse(top!.body!.content!), { content: "Merged and Forwarded Message" });
  for (const i of [one, inner, three]) assert.equal(i!.upper_message_id, fwd.messageId);
  for (const i of [bot, img]) assert.equal(i!.upper_message_id, inner!.message_id);
  assert.equal(one!.create_time, "1000");
  assert.deepEqual([one!.sender!.id, one!.sender!.sender_type], [D.bob.openId, "user"]);
  assert.deepEqual([bot!.sender!.id, bot!.sender!.sender_type], [D.appId, "app"]);
  assert.equal(three!.sender!.id, D.bob.openId);

  // A forwarded message reads alone, or as a forward with its own messages.
  const alone = await client.im.v1.message.get({ path: { message_id: one!.message_id! } });
  assert.deepEqual(alone.data!.items!.map((i) => i.message_id), [one!.message_id]);
  const nested = await client.im.v1.message.get({ path: { message_id: inner!.message_id! } });
  assert.deepEqual(nested.data!.items!.map((i) => i.message_id), [
    inner!.message_id,
    bot!.message_id,
    img!.message_id,
  ]);

  // None of them is a message of the chat: not in its history, not in `messages`.
  const history = await client.im.v1.message.list({
    params: { container_id_type: "chat", container_id: D.aliceP2p },
  });
  assert.deepEqual(history.data!.items!.map((i) => i.message_id), [fwd.messageId]);
  assert.deepEqual(emu.messages(D.aliceP2p).map((m) => m.messageId), [fwd.messageId]);
  assert.equal(emu.events({ type: "im.message.receive_v1" }).length, 1);
});

Deno.test("a forwarded image downloads by the forward's id; by its own message id it is 234043", async () => {
  await using emu = await startEmulator();
  const client = sdkClient(emu);
  const image = crypto.getRandomValues(new Uint8Array(64));
  const fwd = emu.userForwards({
    user: D.alice.openId,
    chat: D.aliceP2p,
    messages: [{ user: D.bob.openId, forward: [{ user: D.bob.openId, image: { bytes: image } }] }],
  });
  const items = (await client.im.v1.message.get({ path: { message_id: fwd.messageId! } })).data!
    .items!;
  const img = items.at(-1)!;
  const key = JSON.parse(img.body!.content!).image_key as string;
  const res = await client.im.v1.messageResource.get({
    path: { message_id: fwd.messageId!, file_key: key },
    params: { type: "image" },
  });
  assert.deepEqual(await readAll(res.getReadableStream()), image);
  for (const owner of [img.message_id!, items[1]!.message_id!]) {
    const refused = client.im.v1.messageResource.get({
      path: { message_id: owner, file_key: key },
      params: { type: "image" },
    });
    assert.equal(await downloadRefusalCode(refused), 234043);
  }
});

Deno.test("a stored message from before the bot's time reads with its own time; an unreadable one is 230027", async () => {
  await using emu = await startEmulator();
  const client = sdkClient(emu);
  const old = emu.storeMessage({
    user: D.bob.openId,
    chat: D.team,
    text: "old",
    createTime: 5_000,
  });
  const hidden = emu.storeMessage({
    user: D.bob.openId,
    chat: D.team,
    text: "secret",
    unreadable: true,
  });
  const got = await client.im.v1.message.get({ path: { message_id: old.messageId } });
  assert.equal(got.data!.items![0]!.create_time, "5000");
  assert.equal(
    await codeOf(client.im.v1.message.get({ path: { message_id: hidden.messageId } })),
    230027,
  );
  assert.equal(emu.events().length, 0);
});

Deno.test("a raw message is stored exactly as given and carries the keys it names", async () => {
  await using emu = await startEmulator();
  const client = sdkClient(emu);
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const key = emu.uploadResource({ bytes });
  const content = JSON.stringify({
    post: { zh_cn: { title: "T", content: [[{ tag: "img", image_key: key }]] } },
  });
  const sent = emu.userSends({
    user: D.alice.openId,
    chat: D.aliceP2p,
    raw: { msgType: "post", content, resources: [key] },
  });
  const got = await client.im.v1.message.get({ path: { message_id: sent.messageId! } });
  assert.equal(got.data!.items![0]!.body!.content, content);
  const res = await client.im.v1.messageResource.get({
    path: { message_id: sent.messageId!, file_key: key },
    params: { type: "image" },
  });
  assert.deepEqual(await readAll(res.getReadableStream()), bytes);
});

Deno.test("a forward from someone unknown, or of nothing, is refused with a clear message", async () => {
  await using emu = await startEmulator();
  assert.throws(
    () =>
      emu.userForwards({
        user: D.alice.openId,
        chat: D.aliceP2p,
        messages: [{ user: "ou_nobody", text: "x" }],
      }),
    /Expected a known user, app id or bot open_id to forward from but found ou_nobody/,
  );
  assert.throws(
    () => emu.userForwards({ user: D.alice.openId, chat: D.aliceP2p, messages: [] }),
    /Expected at least one message to forward/,
  );
});
