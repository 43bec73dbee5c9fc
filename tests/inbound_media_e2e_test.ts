/**
 * End to end, inbound: the ACK does not wait for slow work, one chat's jobs
 * never overlap while other chats go on, attachments arrive byte for byte
 * with safe names, and voice goes through the operator's
 * transcriber (the stub), or records exactly why it did not.
 */

import assert from "node:assert/strict";
import { DEFAULT_IDS as D, ManualEmuClock, startEmulator } from "../lib/emulator/mod.ts";
import { bridgeConfig, fixture, startBridge, stubTranscriber } from "./_inbound.ts";
import { REPO, startArgs } from "./_server.ts";

const RESOURCE = "/open-apis/im/v1/messages/:message_id/resources/:file_key";

Deno.test("intake ACKs a chat's second event while its first job is still downloading, and runs other chats meanwhile", async () => {
  // The emulator's clock is manual: a delayed download stays in flight until
  // the test advances it. No wall-clock timing anywhere.
  const clock = new ManualEmuClock(Date.now());
  await using emu = await startEmulator({ clock });
  const bridge = await startBridge({ config: bridgeConfig(emu.url) });
  try {
    await emu.ws.whenReady();
    emu.faults.add({ method: "GET", path: RESOURCE, times: 1, respond: { delayMs: 60_000 } });
    const bytes = new TextEncoder().encode("slow bytes");
    const first = emu.userSends({
      user: D.alice.openId,
      chat: D.aliceP2p,
      file: { bytes, name: "slow.txt" },
    });
    await first.ack;
    // The first job holds the download (the fault rule is consumed when it matches).
    await emu.waitFor(() => emu.faults.rules().length === 0);
    const second = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "second" });
    const ack = await second.ack;
    assert.equal(ack.code, 200);
    assert.equal(emu.event(second.eventId)?.status, "acked");

    // Another chat is not held up by Alice's chat.
    const other = emu.userSends({ user: D.bob.openId, chat: D.bobP2p, text: "from bob" });
    await bridge.updates.atLeast(1);
    assert.deepEqual((await bridge.records(D.bobP2p)).map((r) => r.text), ["from bob"]);

    // Alice's chat: nothing visible yet, and the second job has not started
    // (it queues its OK when it starts, so none can be there yet).
    assert.deepEqual(await bridge.records(D.aliceP2p), []);
    assert.deepEqual(emu.reactions(second.messageId!), []);
    await emu.waitFor(() => emu.reactions(first.messageId!).some((r) => r.emojiType === "OK"));
    assert.ok(emu.event(other.eventId)?.ack);

    clock.advance(60_000);
    await bridge.updates.atLeast(3);
    const alice = await bridge.records(D.aliceP2p);
    assert.deepEqual(alice.map((r) => r.message_type), ["file", "text"]);
    const [file] = alice[0]!.attachments as Record<string, unknown>[];
    assert.equal(file!.status, "downloaded");
    assert.deepEqual(await Deno.readFile(String(file!.path)), bytes);
    // The OK is presence work, sent after the record without holding it up.
    await emu.waitFor(() => emu.reactions(second.messageId!).length > 0);
    assert.deepEqual(emu.reactions(second.messageId!).map((r) => r.emojiType), ["OK"]);
  } finally {
    await bridge.close();
  }
});

Deno.test("inbound media: a post's image, a video with its cover, a sticker and a file are downloaded in order with safe names and exact bytes", async () => {
  await using emu = await startEmulator();
  const bridge = await startBridge({ config: bridgeConfig(emu.url) });
  try {
    await emu.ws.whenReady();
    const video = crypto.getRandomValues(new Uint8Array(4096));
    const image = crypto.getRandomValues(new Uint8Array(512));
    // The image a user pasted into a post (Feishu stores it before the post is sent).
    emu.world.uploads.set("img_v3_user_pasted", {
      key: "img_v3_user_pasted",
      kind: "image",
      bytes: image,
      contentType: "image/png",
    });
    const post = emu.userSends({
      user: D.alice.openId,
      chat: D.aliceP2p,
      post: {
        title: "resource bundle",
        content: [[{ tag: "text", text: "see " }, { tag: "img", image_key: "img_v3_user_pasted" }]],
      },
    });
    // A video whose provider file name tries to escape the folder.
    const clip = emu.userSends({
      user: D.alice.openId,
      chat: D.aliceP2p,
      video: { bytes: video, name: "../../clip.mp4", duration: 3000 },
    });
    const sticker = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, sticker: {} });
    const file = emu.userSends({
      user: D.alice.openId,
      chat: D.aliceP2p,
      file: { bytes: new TextEncoder().encode("notes"), name: "bundle.txt" },
    });
    await bridge.updates.atLeast(4);
    const records = await bridge.records(D.aliceP2p);
    assert.deepEqual(records.map((r) => r.feishu_message_id), [
      post.messageId,
      clip.messageId,
      sticker.messageId,
      file.messageId,
    ]);
    const atts = records.flatMap((r) => r.attachments as Record<string, unknown>[]);
    assert.deepEqual(atts.map((a) => a.type), ["image", "video", "image", "sticker", "file"]);
    assert.deepEqual(atts.filter((a) => a.status !== "downloaded"), []);
    const [img, v, cover, , f] = atts;
    assert.equal(cover!.role, "cover");
    assert.equal(cover!.parent_file_key, v!.file_key);
    assert.equal(v!.filename, "clip.mp4");
    assert.equal((records[1]!.media as Record<string, unknown>).type, "video");
    for (const [i, a] of atts.entries()) {
      const rec = records.find((r) => (r.attachments as unknown[]).includes(a))!;
      const dir = `${bridge.server.workdir}/feishu/main/attachments/${rec.feishu_message_id}/`;
      assert.ok(String(a.path).startsWith(dir), `attachment ${i} lies in ${dir}`);
      assert.ok(!String(a.filename).includes("/"));
      const stat = await Deno.stat(String(a.path));
      assert.equal(stat.size, a.size);
      assert.ok(stat.size > 0);
    }
    assert.deepEqual(await Deno.readFile(String(img!.path)), image);
    assert.deepEqual(await Deno.readFile(String(v!.path)), video);
    assert.equal(await Deno.readTextFile(String(f!.path)), "notes");
    // Downloads went out in record order with Feishu's API types.
    const downloads = emu.requests({ method: "GET", path: RESOURCE }).map((r) =>
      `${r.path.split("/").pop()}?${r.query.type}`
    );
    assert.deepEqual(
      downloads,
      atts.map((a) =>
        `${a.file_key}?${a.type === "image" || a.type === "sticker" ? "image" : "file"}`
      ),
    );
    // read and search return the stored attachments.
    const found = await bridge.call("search", { query: "resource bundle" });
    assert.equal(found.total, 1);
    const hit = (found.messages as Record<string, unknown>[])[0]!;
    assert.deepEqual(hit.attachments, records[0]!.attachments);
  } finally {
    await bridge.close();
  }
});

Deno.test("inbound media: a failed download keeps the descriptor, the text and the envelope, and creates no folder", async () => {
  await using emu = await startEmulator();
  const bridge = await startBridge({ config: bridgeConfig(emu.url) });
  try {
    await emu.ws.whenReady();
    emu.faults.add({
      method: "GET",
      path: RESOURCE,
      times: 1,
      respond: { status: 400, code: 234003, msg: "download unavailable" },
    });
    const sent = emu.userSends({
      user: D.alice.openId,
      chat: D.aliceP2p,
      file: { bytes: new TextEncoder().encode("x"), name: "report.txt" },
    });
    const [push] = await bridge.channel.atLeast(1);
    const [rec] = await bridge.records(D.aliceP2p);
    const key = (rec!.content as Record<string, unknown>).file_key;
    assert.deepEqual(rec!.content, { kind: "file", file_key: key, file_name: "report.txt" });
    assert.equal(rec!.text, `<file key="${key}" name="report.txt"/>`);
    const atts = rec!.attachments as Record<string, unknown>[];
    assert.equal(atts.length, 1);
    const { error, ...rest } = atts[0]!;
    assert.deepEqual(rest, {
      type: "file",
      file_key: key,
      file_name: "report.txt",
      status: "failed",
    });
    assert.match(String(error), /download unavailable/);
    assert.ok(String(error).length <= 200);
    assert.match(
      String((rec!.media as Record<string, unknown>).download_error),
      /download unavailable/,
    );
    assert.equal(
      (rec!.feishu as Record<string, Record<string, string>>).header!.event_id,
      sent.eventId,
    );
    await assert.rejects(
      Deno.stat(`${bridge.server.workdir}/feishu/main/attachments/${sent.messageId}`),
      Deno.errors.NotFound,
    );
    assert.equal(push!.meta.attachment_1_status, "failed");
    assert.equal(push!.meta.attachment_1_path, undefined);
  } finally {
    await bridge.close();
  }
});

Deno.test("voice goes through the configured transcriber: the transcript becomes the text and the audio stays attached", async () => {
  await using emu = await startEmulator();
  const bridge = await startBridge({
    config: bridgeConfig(emu.url, { top: { transcriber: { command: stubTranscriber() } } }),
  });
  try {
    await emu.ws.whenReady();
    const ogg = fixture("voice_hello.ogg");
    emu.userSends({
      user: D.alice.openId,
      chat: D.aliceP2p,
      audio: { bytes: ogg, duration: 1710 },
    });
    const [push] = await bridge.channel.atLeast(1);
    const [rec] = await bridge.records(D.aliceP2p);
    assert.equal(rec!.text, "hello from feishu voice");
    const transcript = rec!.voice_transcript as Record<string, unknown>;
    assert.equal(transcript.text, "hello from feishu voice");
    const [audio] = rec!.attachments as Record<string, unknown>[];
    assert.equal(audio!.status, "downloaded");
    assert.equal(audio!.transcription_status, "completed");
    assert.equal(audio!.filename, "audio.opus"); // the provider's name, kept (it has a suffix)
    assert.deepEqual(await Deno.readFile(String(audio!.path)), ogg);
    assert.equal(push!.content, "hello from feishu voice");
    assert.equal(push!.meta.voice_transcript, "true");
  } finally {
    await bridge.close();
  }
});

Deno.test("voice without a transcriber, or with a failing one, keeps the placeholder text and the exact failure fields", async (t) => {
  const cases = [
    { name: "no transcriber configured", top: {}, error: "no transcriber configured" },
    {
      name: "a transcriber that fails",
      top: { transcriber: { command: stubTranscriber(["--fail", "model unavailable"]) } },
      error: "model unavailable",
    },
  ];
  for (const c of cases) {
    await t.step(c.name, async () => {
      await using emu = await startEmulator();
      const bridge = await startBridge({ config: bridgeConfig(emu.url, { top: c.top }) });
      try {
        await emu.ws.whenReady();
        const ogg = fixture("voice_hello.ogg");
        emu.userSends({
          user: D.alice.openId,
          chat: D.aliceP2p,
          audio: { bytes: ogg, duration: 2000 },
        });
        await bridge.updates.atLeast(1);
        const [rec] = await bridge.records(D.aliceP2p);
        const key = (rec!.content as Record<string, unknown>).file_key;
        assert.equal(rec!.text, `<audio key="${key}" duration="2s"/>`);
        assert.equal(rec!.voice_transcript, null);
        const [audio] = rec!.attachments as Record<string, unknown>[];
        assert.equal(audio!.status, "downloaded");
        assert.equal(audio!.transcription_status, "failed");
        assert.equal(audio!.transcription_error, c.error);
        assert.match(String(audio!.path), /\/feishu\/main\/attachments\/om_[^/]+\/audio\.opus$/);
        assert.deepEqual(await Deno.readFile(String(audio!.path)), ogg);
      } finally {
        await bridge.close();
      }
    });
  }
});

Deno.test("shutdown at stdin EOF aborts a stalled download: the server exits 0 by itself, clears Typing, and the next start finishes the job", async () => {
  await using emu = await startEmulator();
  const workdir = await Deno.makeTempDir({ prefix: "feishu-mcp-test-" });
  const configPath = `${workdir}/config.json`;
  await Deno.writeTextFile(configPath, JSON.stringify(bridgeConfig(emu.url)));
  emu.faults.add({ method: "GET", path: RESOURCE, times: 1, respond: "hang" });
  const child = new Deno.Command(Deno.execPath(), {
    args: startArgs(["--workdir", workdir, "--config", configPath]),
    cwd: REPO,
    stdin: "piped",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  const w = child.stdin.getWriter();
  const line = (msg: unknown) => w.write(new TextEncoder().encode(JSON.stringify(msg) + "\n"));
  await line({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "t", version: "1" },
    },
  });
  await line({ jsonrpc: "2.0", method: "notifications/initialized" });
  await line({ jsonrpc: "2.0", id: 2, method: "tools/list" });
  await emu.ws.whenReady();
  const sent = emu.userSends({
    user: D.alice.openId,
    chat: D.aliceP2p,
    file: { bytes: new TextEncoder().encode("stalled"), name: "stalled.txt" },
  });
  // The download is in flight and will hang until the emulator closes.
  await emu.waitFor(() => emu.faults.rules().length === 0);
  await emu.waitFor(() => emu.reactions(sent.messageId!).some((r) => r.emojiType === "Typing"));
  await w.close();
  const status = await child.status;
  assert.equal(status.code, 0, await stderr);
  assert.match(await stderr, /feishu-mcp stopped/);
  // The shutdown cancelled the download; it did not wait for an HTTP timeout.
  assert.match(await stderr, /download_resource failed: ERR_CANCELED/);
  assert.deepEqual(emu.reactions(sent.messageId!).map((r) => r.emojiType), ["OK"]);

  // The journal kept the entry: the next start downloads the file and records it.
  const bridge = await startBridge({ config: bridgeConfig(emu.url), workdir });
  try {
    await bridge.updates.atLeast(1);
    const [rec] = await bridge.records(D.aliceP2p);
    const [att] = rec!.attachments as Record<string, unknown>[];
    assert.equal(att!.status, "downloaded");
    assert.equal(await Deno.readTextFile(String(att!.path)), "stalled");
  } finally {
    await bridge.close();
  }
});
