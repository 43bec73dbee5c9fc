/**
 * End to end over stdio against the emulator: every outbound content type
 * (path and key sources), what Feishu receives for each, the sent records
 * `read` shows, and every rejection that must never reach Feishu.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import type { Emulator, RequestRecord } from "../lib/emulator/mod.ts";
import { D, type Rig, startRig } from "./_outbound.ts";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
const OPUS = new TextEncoder().encode("OggS fake opus payload");
const MP4 = new TextEncoder().encode("....ftypmp42 fake video");
const PDF = new TextEncoder().encode("%PDF-1.4 fake report");

/** Requests that change something at Feishu (token fetches and reads excluded). */
function writes(emu: Emulator): RequestRecord[] {
  return emu.requests().filter((r) => r.method !== "GET" && !r.path.includes("/auth/"));
}

/** The newest sent record of a chat, as `read` shows it. */
async function lastRecord(rig: Rig, chatId: string): Promise<Record<string, unknown>> {
  const out = await rig.call("read", { chat_id: chatId, limit: 1 });
  return (out.messages as Record<string, unknown>[])[0]!;
}

/** The bot's newest message in a chat, as the emulator stored it. */
function lastWire(rig: Rig, chatId: string) {
  const m = rig.emu.lastSent(chatId)!;
  return { msgType: m.msgType, content: JSON.parse(m.content) };
}

Deno.test("outbound content end to end: every type reaches Feishu as its wire message and is recorded", async (t) => {
  await using rig = await startRig();
  const file = async (name: string, bytes: Uint8Array) => {
    const path = join(rig.mediaDir, name);
    await Deno.writeFile(path, bytes);
    return path;
  };
  const send = (content: Record<string, unknown>, to = D.team) =>
    rig.call("send", { receive_id: to, receive_id_type: "chat_id", content });
  const keys: Record<string, string> = {};

  await t.step(
    "send text:'hi' to an open_id returns exactly the one-chunk shape, chat segment = provider chat id",
    async () => {
      const out = await rig.call("send", { receive_id: D.alice.openId, text: "hi" });
      const id = `main:${D.aliceP2p}:${rig.emu.lastSent(D.aliceP2p)!.messageId}`;
      assert.deepEqual(out, {
        status: "sent",
        message_id: id,
        message_ids: [id],
        chunk_count: 1,
        chunks: [{ index: 1, message_id: id }],
        content_type: "text",
      });
      const create = writes(rig.emu).at(-1)!;
      assert.equal(create.query.receive_id_type, "open_id");
      const body = create.body as Record<string, unknown>;
      assert.equal(body.receive_id, D.alice.openId);
      assert.equal(body.msg_type, "text");
      assert.equal(body.content, JSON.stringify({ text: "hi" }));
      assert.match(String(body.uuid), /^[0-9a-f-]{36}$/);
    },
  );

  await t.step(
    "send content text, markdown, post and card: one wire message each, with the record's content and preview",
    async () => {
      const cases = [
        {
          content: { type: "text", text: "plain" },
          msgType: "text",
          messageType: "text",
          preview: "plain",
        },
        {
          content: { type: "markdown", markdown: "**bold** and `code`" },
          msgType: "post",
          messageType: "post",
          preview: "**bold** and `code`",
        },
        {
          content: {
            type: "post",
            post: { zh_cn: { title: "T", content: [[{ tag: "text", text: "body" }]] } },
          },
          msgType: "post",
          messageType: "post",
          preview: "T\nbody",
        },
        {
          content: {
            type: "card",
            card: {
              schema: "2.0",
              header: { title: { tag: "plain_text", content: "Deploy?" } },
              body: { elements: [{ tag: "markdown", content: "go" }] },
            },
          },
          msgType: "interactive",
          messageType: "interactive",
          preview: "Deploy?\ngo",
        },
      ];
      for (const c of cases) {
        const out = await send(c.content);
        assert.equal(out.status, "sent", JSON.stringify(out));
        assert.equal(out.content_type, c.content.type);
        const wire = lastWire(rig, D.team);
        assert.equal(wire.msgType, c.msgType);
        const rec = await lastRecord(rig, D.team);
        assert.deepEqual(rec.content, c.content);
        assert.equal(rec.message_type, c.messageType);
        assert.equal(rec.text, c.preview);
        assert.equal(rec.status, "sent");
        assert.equal(rec._direction, "outgoing");
        assert.deepEqual(rec.to, { receive_id: D.team, receive_id_type: "chat_id" });
      }
      // A markdown message goes out as a post with one md element.
      const md = rig.emu.messages(D.team).find((m) =>
        m.msgType === "post" && m.content.includes("**bold**")
      )!;
      assert.deepEqual(JSON.parse(md.content).content, [[{
        tag: "md",
        text: "**bold** and `code`",
      }]]);
    },
  );

  await t.step(
    "a schema-2.0 card arrives at Feishu exactly as given and its preview hides the button value",
    async () => {
      const card = {
        schema: "2.0",
        config: { update_multi: true },
        header: { title: { tag: "plain_text", content: "Approve deploy" } },
        body: {
          elements: [{
            tag: "button",
            text: { tag: "plain_text", content: "Approve" },
            value: { token: "s3cret-callback" },
          }],
        },
      };
      const out = await send({ type: "card", card });
      assert.equal(out.content_type, "card");
      assert.deepEqual(lastWire(rig, D.team), { msgType: "interactive", content: card });
      const rec = await lastRecord(rig, D.team);
      assert.deepEqual(rec.content, { type: "card", card });
      assert.equal(rec.message_type, "interactive");
      assert.match(String(rec.text), /Approve deploy/);
      assert.match(String(rec.text), /Approve/);
      assert.doesNotMatch(String(rec.text), /s3cret-callback/);
    },
  );

  await t.step(
    "image path + caption: uploaded once, sent as a post with the caption and the image; media summary {type, filename, size}",
    async () => {
      const path = await file("shot.png", PNG);
      const before = rig.emu.requests({ path: "/open-apis/im/v1/images" }).length;
      const out = await send({
        type: "image",
        source: { type: "path", path },
        caption: "**caption**",
      });
      assert.equal(out.status, "sent");
      assert.equal(out.content_type, "image");
      assert.equal(rig.emu.requests({ path: "/open-apis/im/v1/images" }).length, before + 1);
      const wire = lastWire(rig, D.team);
      assert.equal(wire.msgType, "post");
      const rows = wire.content.content as Record<string, unknown>[][];
      assert.deepEqual(rows[0], [{ tag: "md", text: "**caption**" }]);
      assert.equal(rows[1]![0]!.tag, "img");
      keys.image = String(rows[1]![0]!.image_key);
      const rec = await lastRecord(rig, D.team);
      assert.deepEqual(rec.content, {
        type: "image",
        source: { type: "path", path },
        caption: "**caption**",
      });
      assert.equal(rec.message_type, "post");
      assert.deepEqual(rec.media, { type: "image", filename: "shot.png", size: PNG.length });
      assert.equal(rec.text, "**caption**");
    },
  );

  await t.step(
    "image path without caption goes out as an image message; image key sources are used verbatim (no upload)",
    async () => {
      const path = await file("plain.png", PNG);
      await send({ type: "image", source: { type: "path", path } });
      assert.equal(lastWire(rig, D.team).msgType, "image");
      const uploads = rig.emu.requests({ path: "/open-apis/im/v1/images" }).length;
      const out = await send({ type: "image", source: { type: "key", key: keys.image! } });
      assert.equal(out.status, "sent");
      assert.deepEqual(lastWire(rig, D.team), {
        msgType: "image",
        content: { image_key: keys.image },
      });
      assert.equal(rig.emu.requests({ path: "/open-apis/im/v1/images" }).length, uploads);
      const rec = await lastRecord(rig, D.team);
      assert.deepEqual(rec.content, { type: "image", source: { type: "key", key: keys.image } });
      assert.deepEqual(rec.media, { type: "image" });
      assert.equal(rec.text, "[image]");
      assert.doesNotMatch(String(rec.text), new RegExp(keys.image!));
    },
  );

  await t.step(
    "file path: file_name names the upload (stream), the message is a file; the record keeps the exact descriptor",
    async () => {
      const path = await file("r-2026.bin", PDF);
      const out = await send({
        type: "file",
        source: { type: "path", path },
        file_name: "report.pdf",
      });
      assert.equal(out.content_type, "file");
      const upload = rig.emu.requests({ path: "/open-apis/im/v1/files" }).at(-1)!;
      const part = (n: string) =>
        new TextDecoder().decode(upload.parts!.find((p) => p.name === n)!.data);
      assert.equal(part("file_type"), "stream");
      assert.equal(part("file_name"), "report.pdf");
      const wire = lastWire(rig, D.team);
      assert.equal(wire.msgType, "file");
      keys.file = String(wire.content.file_key);
      assert.equal(rig.emu.world.uploads.get(keys.file)!.fileName, "report.pdf");
      const rec = await lastRecord(rig, D.team);
      assert.deepEqual(rec.content, {
        type: "file",
        source: { type: "path", path },
        file_name: "report.pdf",
      });
      assert.deepEqual(rec.media, { type: "file", filename: "report.pdf", size: PDF.length });
      assert.equal(rec.text, "[file: report.pdf]");
      assert.doesNotMatch(String(rec.text), new RegExp(rig.mediaDir));
    },
  );

  await t.step(
    "file key + file_name: sent verbatim; preview and media name the file",
    async () => {
      const out = await send({
        type: "file",
        source: { type: "key", key: keys.file! },
        file_name: "report.pdf",
      });
      assert.equal(out.content_type, "file");
      assert.deepEqual(lastWire(rig, D.team), {
        msgType: "file",
        content: { file_key: keys.file },
      });
      const rec = await lastRecord(rig, D.team);
      assert.deepEqual(rec.media, { type: "file", filename: "report.pdf" });
      assert.equal(rec.text, "[file: report.pdf]");
    },
  );

  await t.step(
    "audio path uploads as opus and sends an audio message; audio key sends it verbatim",
    async () => {
      const path = await file("voice.opus", OPUS);
      const out = await send({ type: "audio", source: { type: "path", path } });
      assert.equal(out.content_type, "audio");
      const upload = rig.emu.requests({ path: "/open-apis/im/v1/files" }).at(-1)!;
      assert.equal(
        new TextDecoder().decode(upload.parts!.find((p) => p.name === "file_type")!.data),
        "opus",
      );
      const wire = lastWire(rig, D.team);
      assert.equal(wire.msgType, "audio");
      keys.audio = String(wire.content.file_key);
      await send({ type: "audio", source: { type: "key", key: keys.audio } });
      assert.deepEqual(lastWire(rig, D.team), {
        msgType: "audio",
        content: { file_key: keys.audio },
      });
      const rec = await lastRecord(rig, D.team);
      assert.equal(rec.message_type, "audio");
      assert.equal(rec.text, "[audio]");
    },
  );

  await t.step(
    "video path uploads as mp4 (media message); video key + caption is a post with the media element",
    async () => {
      const path = await file("clip.mp4", MP4);
      await send({ type: "video", source: { type: "path", path } });
      const wire = lastWire(rig, D.team);
      assert.equal(wire.msgType, "media");
      keys.video = String(wire.content.file_key);
      const out = await send({
        type: "video",
        source: { type: "key", key: keys.video },
        caption: "video caption",
      });
      assert.equal(out.content_type, "video");
      const post = lastWire(rig, D.team);
      assert.equal(post.msgType, "post");
      assert.deepEqual(post.content.content, [
        [{ tag: "md", text: "video caption" }],
        [{ tag: "media", file_key: keys.video }],
      ]);
      const rec = await lastRecord(rig, D.team);
      assert.equal(rec.message_type, "post");
      assert.equal(rec.text, "video caption");
      assert.deepEqual(rec.media, { type: "video" });
    },
  );

  await t.step("share_chat, share_user and sticker map to their wire types", async () => {
    const cases = [
      {
        content: { type: "share_chat", chat_id: D.topics },
        msgType: "share_chat",
        wire: { chat_id: D.topics },
        preview: "[shared chat]",
      },
      {
        content: { type: "share_user", user_id: D.bob.openId },
        msgType: "share_user",
        wire: { user_id: D.bob.openId },
        preview: "[shared user]",
      },
      {
        content: { type: "sticker", file_key: "st_provider" },
        msgType: "sticker",
        wire: { file_key: "st_provider" },
        preview: "[sticker]",
      },
    ];
    for (const c of cases) {
      const out = await send(c.content);
      assert.equal(out.status, "sent");
      assert.equal(out.content_type, c.content.type);
      assert.deepEqual(lastWire(rig, D.team), { msgType: c.msgType, content: c.wire });
      const rec = await lastRecord(rig, D.team);
      assert.equal(rec.text, c.preview);
      assert.equal(rec.message_type, c.msgType);
    }
    assert.deepEqual((await lastRecord(rig, D.team)).media, { type: "sticker" });
  });

  await t.step(
    "reply with an image key source sends the image with reply_in_thread false to a non-topic target",
    async () => {
      const target = await rig.inbound({
        user: D.alice.openId,
        chat: D.team,
        text: "send me the shot",
      });
      const out = await rig.call("reply", {
        message_id: target.id,
        content: { type: "image", source: { type: "key", key: keys.image! } },
      });
      assert.equal(out.status, "sent");
      assert.equal(out.content_type, "image");
      assert.equal(out.reply_in_thread, false);
      const req = rig.emu.requests({ path: "/open-apis/im/v1/messages/:id/reply" }).at(-1)!;
      assert.equal(req.path, `/open-apis/im/v1/messages/${target.messageId}/reply`);
      const body = req.body as Record<string, unknown>;
      assert.equal(body.reply_in_thread, false);
      assert.equal(body.msg_type, "image");
      assert.equal(body.content, JSON.stringify({ image_key: keys.image }));
    },
  );

  await t.step(
    "send and reply with a schema-2.0 card return content_type card and Feishu gets the exact card",
    async () => {
      const card = {
        schema: "2.0",
        body: { elements: [{ tag: "markdown", content: "card reply" }] },
      };
      const target = await rig.inbound({ user: D.bob.openId, chat: D.team, text: "card please" });
      const out = await rig.call("reply", {
        message_id: target.id,
        content: { type: "card", card },
      });
      assert.equal(out.content_type, "card");
      const body = rig.emu.requests({ path: "/open-apis/im/v1/messages/:id/reply" }).at(-1)!
        .body as Record<string, unknown>;
      assert.equal(body.msg_type, "interactive");
      assert.deepEqual(JSON.parse(String(body.content)), card);
    },
  );

  await t.step(
    "the sent records' text never shows a local path or a provider key (check's last_text too)",
    async () => {
      const all = (await rig.call("read", { chat_id: D.team, limit: null })).messages as Record<
        string,
        unknown
      >[];
      for (const rec of all.filter((r) => r._direction === "outgoing")) {
        assert.doesNotMatch(String(rec.text), new RegExp(rig.mediaDir));
        for (const key of Object.values(keys)) {
          assert.ok(!String(rec.text).includes(key), String(rec.text));
        }
      }
      const convs = (await rig.call("check", {})).conversations as Record<string, unknown>[];
      for (const c of convs) assert.doesNotMatch(String(c.last_text), new RegExp(rig.mediaDir));
    },
  );

  await t.step(
    "bad input never reaches Feishu: each rejection has its error_code and Feishu saw no request",
    async () => {
      const outside = await Deno.makeTempFile({ suffix: ".png" });
      await Deno.writeFile(outside, PNG);
      const link = join(rig.mediaDir, "escape.png");
      await Deno.symlink(outside, link);
      const empty = await file("empty.png", new Uint8Array());
      const big = { zh_cn: { title: "", content: [[{ tag: "text", text: "x".repeat(40_000) }]] } };
      const image = (source: Record<string, unknown>) => ({ type: "image", source });
      const target = await rig.inbound({ user: D.alice.openId, chat: D.team, text: "target" });
      const cases: {
        name: string;
        action: string;
        input: Record<string, unknown>;
        code: string;
        message?: RegExp;
      }[] = [
        {
          name: "receive_id only",
          action: "send",
          input: { receive_id: D.alice.openId },
          code: "INVALID_ARGUMENT",
        },
        {
          name: "text and content together",
          action: "send",
          input: { receive_id: "ou_x", text: "a", content: { type: "text", text: "a" } },
          code: "INVALID_ARGUMENT",
        },
        {
          name: "markdown content with a text field",
          action: "send",
          input: { receive_id: "ou_x", content: { type: "markdown", text: "a" } },
          code: "INVALID_ARGUMENT",
        },
        {
          name: "post content {}",
          action: "send",
          input: { receive_id: "ou_x", content: { type: "post", post: {} } },
          code: "INVALID_ARGUMENT",
        },
        {
          name: "an empty receive_id",
          action: "send",
          input: { receive_id: "", text: "a" },
          code: "INVALID_ARGUMENT",
          message: /receive_id is required/,
        },
        {
          name: "an empty text",
          action: "send",
          input: { receive_id: "ou_x", text: "" },
          code: "INVALID_ARGUMENT",
          message: /text is required/,
        },
        {
          name: "an unknown account",
          action: "send",
          input: { account: "nope", receive_id: "ou_x", text: "a" },
          code: "INVALID_ARGUMENT",
          message: /Unknown account 'nope'/,
        },
        {
          name: "a relative path",
          action: "send",
          input: { receive_id: "ou_x", content: image({ type: "path", path: "shot.png" }) },
          code: "INVALID_ARGUMENT",
          message: /must be absolute/,
        },
        {
          name: "a URL as a path",
          action: "send",
          input: {
            receive_id: "ou_x",
            content: image({ type: "path", path: "https://e.com/a.png" }),
          },
          code: "INVALID_ARGUMENT",
          message: /does not support URLs/,
        },
        {
          name: "a URL as a key",
          action: "send",
          input: { receive_id: "ou_x", content: image({ type: "key", key: "http://e.com/a.png" }) },
          code: "INVALID_ARGUMENT",
          message: /does not support URLs/,
        },
        {
          name: "a path outside media_roots",
          action: "send",
          input: { receive_id: "ou_x", content: image({ type: "path", path: outside }) },
          code: "INVALID_ARGUMENT",
          message: /inside media_roots/,
        },
        {
          name: "a symlink inside media_roots that leads outside",
          action: "send",
          input: { receive_id: "ou_x", content: image({ type: "path", path: link }) },
          code: "INVALID_ARGUMENT",
          message: /inside media_roots/,
        },
        {
          name: "a missing file",
          action: "send",
          input: {
            receive_id: "ou_x",
            content: image({ type: "path", path: join(rig.mediaDir, "nope.png") }),
          },
          code: "INVALID_ARGUMENT",
          message: /readable file/,
        },
        {
          name: "a directory",
          action: "send",
          input: { receive_id: "ou_x", content: image({ type: "path", path: rig.mediaDir + "/" }) },
          code: "INVALID_ARGUMENT",
        },
        {
          name: "an empty file",
          action: "send",
          input: { receive_id: "ou_x", content: image({ type: "path", path: empty }) },
          code: "INVALID_ARGUMENT",
          message: /non-empty file/,
        },
        {
          name: "placeholder with image content",
          action: "send",
          input: {
            receive_id: "ou_x",
            placeholder: true,
            content: image({ type: "key", key: "img_x" }),
          },
          code: "INVALID_ARGUMENT",
          message: /placeholder only supports/,
        },
        {
          name: "placeholder with a card",
          action: "send",
          input: {
            receive_id: "ou_x",
            placeholder: true,
            content: { type: "card", card: { schema: "2.0", body: {} } },
          },
          code: "INVALID_ARGUMENT",
          message: /placeholder only supports/,
        },
        {
          name: "a schema 1.0 card",
          action: "send",
          input: {
            receive_id: "ou_x",
            content: { type: "card", card: { schema: "1.0", body: {} } },
          },
          code: "INVALID_ARGUMENT",
        },
        {
          name: "a post over Feishu's 30 KB",
          action: "send",
          input: { receive_id: "ou_x", content: { type: "post", post: big } },
          code: "FORMAT_ERROR",
          message: /at most 30000 bytes as a Feishu request but found \d+ \(\d+ bytes over\)/,
        },
        {
          name: "an over-long idempotency_key",
          action: "send",
          input: { receive_id: "ou_x", text: "a", idempotency_key: "k".repeat(300) },
          code: "INVALID_ARGUMENT",
          message: /idempotency_key/,
        },
        {
          name: "edit with image content",
          action: "edit",
          input: { message_id: target.id, content: image({ type: "key", key: "img_x" }) },
          code: "INVALID_ARGUMENT",
        },
        {
          name: "reply to a synthetic events record",
          action: "reply",
          input: { message_id: "main:events:ev_1", text: "a" },
          code: "INVALID_ARGUMENT",
          message: /synthetic record/,
        },
        {
          name: "reply to a card-callback record",
          action: "reply",
          input: { message_id: "main:oc_1:callback-ev_2", text: "a" },
          code: "INVALID_ARGUMENT",
          message: /synthetic record/,
        },
        {
          name: "reply to a malformed id",
          action: "reply",
          input: { message_id: "nope", text: "a" },
          code: "INVALID_ARGUMENT",
          message: /Invalid Feishu message ID format/,
        },
        {
          name: "reply with an empty message_id",
          action: "reply",
          input: { message_id: "", text: "a" },
          code: "INVALID_ARGUMENT",
          message: /message_id is required/,
        },
        {
          name: "reply on an unknown account",
          action: "reply",
          input: { message_id: "other:oc_1:om_1", text: "a" },
          code: "INVALID_ARGUMENT",
          message: /Unknown account 'other'/,
        },
        {
          name: "react add with a reaction_id",
          action: "react",
          input: { message_id: target.id, operation: "add", emoji_type: "SMILE", reaction_id: "r" },
          code: "INVALID_ARGUMENT",
        },
        {
          name: "delete of an events record",
          action: "delete",
          input: { message_id: "main:events:ev_1" },
          code: "INVALID_ARGUMENT",
        },
      ];
      await rig.presenceDrained();
      const before = writes(rig.emu).length;
      const total = (await rig.call("check", {})).total;
      for (const c of cases) {
        const out = await rig.call(c.action, c.input);
        assert.equal(out.status, "failed", c.name);
        assert.equal(out.error_code, c.code, `${c.name}: ${JSON.stringify(out)}`);
        assert.equal(out.retryable, false, c.name);
        assert.equal(out.retry_after_seconds, null, c.name);
        if (c.message) assert.match(String(out.error), c.message, c.name);
      }
      assert.equal(writes(rig.emu).length, before);
      assert.equal((await rig.call("check", {})).total, total);
      await Deno.remove(outside);
    },
  );
});
