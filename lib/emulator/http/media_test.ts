import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { codeOf, downloadRefusalCode, readAll, sdkClient } from "../testdata/sdk_harness.ts";
import { DEFAULT_IDS, startEmulator } from "../mod.ts";

const D = DEFAULT_IDS;
const ALL_BYTES = Uint8Array.from({ length: 256 }, (_, i) => i);

Deno.test("image.create keeps every byte, and the sent image downloads back intact", async () => {
  await using emu = await startEmulator();
  const client = sdkClient(emu);
  const up = await client.im.v1.image.create({
    data: { image_type: "message", image: Buffer.from(ALL_BYTES) },
  });
  const key = up?.image_key ?? "";
  assert.match(key, /^img_v3_/);
  assert.deepEqual(emu.world.uploads.get(key)?.bytes, ALL_BYTES);
  const parts = emu.requests({ path: "/open-apis/im/v1/images" })[0]?.parts ?? [];
  assert.deepEqual(parts.map((p) => p.name), ["image_type", "image"]);
  const sent = await client.im.v1.message.create({
    params: { receive_id_type: "chat_id" },
    data: { receive_id: D.team, msg_type: "image", content: JSON.stringify({ image_key: key }) },
  });
  const res = await client.im.v1.messageResource.get({
    path: { message_id: sent.data?.message_id ?? "", file_key: key },
    params: { type: "image" },
  });
  assert.deepEqual(await readAll(res.getReadableStream()), ALL_BYTES);
  const own = await client.im.v1.image.get({ path: { image_key: key } });
  assert.deepEqual(await readAll(own.getReadableStream()), ALL_BYTES);
});

Deno.test("file.create records type, name and duration; audio needs an opus upload", async () => {
  await using emu = await startEmulator();
  const client = sdkClient(emu);
  const opus = await client.im.v1.file.create({
    data: {
      file_type: "opus",
      file_name: "voice.opus",
      duration: 3000,
      file: Buffer.from(ALL_BYTES),
    },
  });
  const upload = emu.world.uploads.get(opus?.file_key ?? "");
  assert.deepEqual([upload?.fileType, upload?.fileName, upload?.duration], [
    "opus",
    "voice.opus",
    3000,
  ]);
  assert.deepEqual(upload?.bytes, ALL_BYTES);
  const pdf = await client.im.v1.file.create({
    data: { file_type: "pdf", file_name: "报告.pdf", file: Buffer.from("%PDF-1.4") },
  });
  assert.equal(emu.world.uploads.get(pdf?.file_key ?? "")?.fileName, "报告.pdf");
  const send = (msgType: string, key: string) =>
    codeOf(client.im.v1.message.create({
      params: { receive_id_type: "chat_id" },
      data: { receive_id: D.team, msg_type: msgType, content: JSON.stringify({ file_key: key }) },
    }));
  assert.equal(await send("audio", opus?.file_key ?? ""), 0);
  assert.equal(await send("audio", pdf?.file_key ?? ""), 230055);
  assert.equal(await send("file", pdf?.file_key ?? ""), 0);
  const own = await client.im.v1.file.get({ path: { file_key: opus?.file_key ?? "" } });
  assert.deepEqual(await readAll(own.getReadableStream()), ALL_BYTES);
});

Deno.test("uploads that are empty, too big or mistyped answer 234001", async () => {
  await using emu = await startEmulator({ limits: { imageBytes: 10, fileBytes: 10 } });
  const client = sdkClient(emu);
  const cases: [string, Promise<unknown>][] = [
    [
      "empty image",
      client.im.v1.image.create({ data: { image_type: "message", image: Buffer.alloc(0) } }),
    ],
    [
      "big image",
      client.im.v1.image.create({ data: { image_type: "message", image: Buffer.alloc(11) } }),
    ],
    [
      "bad image_type",
      client.im.v1.image.create({
        data: { image_type: "poster" as "message", image: Buffer.alloc(1) },
      }),
    ],
    [
      "big file",
      client.im.v1.file.create({
        data: { file_type: "stream", file_name: "a", file: Buffer.alloc(11) },
      }),
    ],
    [
      "bad file_type",
      client.im.v1.file.create({
        data: { file_type: "exe" as "stream", file_name: "a", file: Buffer.alloc(1) },
      }),
    ],
  ];
  for (const [name, p] of cases) assert.equal(await codeOf(p), 234001, name);
  assert.equal(emu.world.uploads.size, 0);
});

Deno.test("messageResource.get downloads a user's inbound file and refuses keys the message lacks", async () => {
  await using emu = await startEmulator({ resourceNotFoundCode: 234099 });
  const client = sdkClient(emu);
  const sent = emu.userSends({
    user: D.alice.openId,
    chat: D.aliceP2p,
    file: { bytes: ALL_BYTES, name: "a.bin" },
  });
  const key = JSON.parse(emu.world.messages.get(sent.messageId!)!.content).file_key;
  const res = await client.im.v1.messageResource.get({
    path: { message_id: sent.messageId!, file_key: key },
    params: { type: "file" },
  });
  assert.deepEqual(await readAll(res.getReadableStream()), ALL_BYTES);
  assert.match(String(res.headers["content-disposition"]), /a\.bin/);
  const other = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "no files here" });
  const missing = client.im.v1.messageResource.get({
    path: { message_id: other.messageId!, file_key: key },
    params: { type: "file" },
  });
  assert.equal(await downloadRefusalCode(missing), 234099);
  // A bot cannot reuse a user's resource key in its own message.
  assert.equal(
    await codeOf(client.im.v1.message.create({
      params: { receive_id_type: "chat_id" },
      data: { receive_id: D.team, msg_type: "file", content: JSON.stringify({ file_key: key }) },
    })),
    230017,
  );
});

Deno.test("messageResource.get serves a sticker's resource as an image, as the messaging spec downloads it", async () => {
  await using emu = await startEmulator();
  const client = sdkClient(emu);
  const sent = emu.userSends({
    user: D.alice.openId,
    chat: D.aliceP2p,
    sticker: { bytes: ALL_BYTES },
  });
  const key = JSON.parse(emu.world.messages.get(sent.messageId!)!.content).file_key;
  const res = await client.im.v1.messageResource.get({
    path: { message_id: sent.messageId!, file_key: key },
    params: { type: "image" },
  });
  assert.deepEqual(await readAll(res.getReadableStream()), ALL_BYTES);
  const asFile = client.im.v1.messageResource.get({
    path: { message_id: sent.messageId!, file_key: key },
    params: { type: "file" },
  });
  assert.equal(await downloadRefusalCode(asFile), 234001);
});

Deno.test("messageReaction create, list and delete; deleted messages answer 231003", async () => {
  await using emu = await startEmulator();
  const client = sdkClient(emu);
  const msg = emu.userSends({ user: D.alice.openId, chat: D.team, text: "react to me" });
  const add = (emoji: string) =>
    client.im.v1.messageReaction.create({
      path: { message_id: msg.messageId! },
      data: { reaction_type: { emoji_type: emoji } },
    });
  const ok = (await add("THUMBSUP")).data!;
  assert.deepEqual(ok.operator, { operator_id: D.appId, operator_type: "app" });
  assert.equal((await add("THUMBSUP")).data?.reaction_id, ok.reaction_id);
  await add("Typing");
  emu.userReacts({ user: D.bob.openId, messageId: msg.messageId!, emoji: "SMILE" });
  const list = await client.im.v1.messageReaction.list({ path: { message_id: msg.messageId! } });
  assert.deepEqual(list.data?.items?.map((r) => r.reaction_type?.emoji_type), [
    "THUMBSUP",
    "Typing",
    "SMILE",
  ]);
  const bobs = emu.reactions(msg.messageId!).find((r) => r.emojiType === "SMILE")!;
  assert.equal(
    await codeOf(
      client.im.v1.messageReaction.delete({
        path: { message_id: msg.messageId!, reaction_id: bobs.reactionId },
      }),
    ),
    231002,
  );
  const del = await client.im.v1.messageReaction.delete({
    path: { message_id: msg.messageId!, reaction_id: ok.reaction_id! },
  });
  assert.equal(del.data?.reaction_id, ok.reaction_id);
  assert.deepEqual(emu.reactions(msg.messageId!).map((r) => r.emojiType), ["Typing", "SMILE"]);
  assert.equal(await codeOf(add("bad emoji!")), 231001);
  emu.recall({ messageId: msg.messageId! });
  assert.equal(await codeOf(add("OK")), 231003);
});
