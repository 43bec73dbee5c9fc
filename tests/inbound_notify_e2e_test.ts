/**
 * End to end, waking the agent: LICC v1
 * files exactly as LingTai reads them, Claude Code channel pushes reaching a
 * real MCP SDK client, and `resources/updated` for `feishu://inbox` only
 * while subscribed.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { DEFAULT_IDS as D, type Emulator, makeUser, startEmulator } from "../lib/emulator/mod.ts";
import { type Bridge, bridgeConfig, fixture, startBridge, stubTranscriber } from "./_inbound.ts";

type Rec = Record<string, unknown>;
const MCP_NAME = "lark_bridge";
const LICC_KEYS = ["licc_version", "from", "subject", "body", "metadata", "wake", "received_at"];
const METADATA_KEYS = [
  "message_id",
  "account",
  "chat_id",
  "chat_type",
  "thread_id",
  "from_open_id",
  "platform",
  "conversation_ref",
  "message_ref",
  "preview_truncated",
  "full_length",
  "has_media",
  "is_voice_transcript",
  "voice_duration",
  "message_type",
  "recent_messages",
  "latest_incoming",
];

/** A LingTai-style bridge: LINGTAI_AGENT_DIR is the workdir, LICC on by default. */
async function startLingTai(emu: Emulator, top: Rec = {}): Promise<Bridge> {
  const workdir = await Deno.makeTempDir({ prefix: "feishu-mcp-licc-" });
  return await startBridge({
    workdir,
    config: bridgeConfig(emu.url, { top }),
    env: { LINGTAI_AGENT_DIR: workdir, LINGTAI_MCP_NAME: MCP_NAME },
  });
}

/** The LICC events written so far, by message id (the inbox is read, not consumed). */
async function liccEvents(bridge: Bridge): Promise<Map<string, Rec>> {
  const dir = join(bridge.server.workdir, ".mcp_inbox", MCP_NAME);
  const out = new Map<string, Rec>();
  for await (const e of Deno.readDir(dir)) {
    assert.match(e.name, /^[0-9a-f]{32}\.json$/, "only finished event files");
    const event = JSON.parse(await Deno.readTextFile(join(dir, e.name)));
    out.set(event.metadata.message_id, event);
  }
  return out;
}

Deno.test("LICC: one event file per admitted message, exactly the v1 shape, with the conversation window", async () => {
  await using emu = await startEmulator();
  const bridge = await startLingTai(emu);
  try {
    await emu.ws.whenReady();
    const first = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "hi there" });
    await bridge.channel.atLeast(1);
    const events = await liccEvents(bridge);
    assert.equal(events.size, 1);
    const id = `main:${D.aliceP2p}:${first.messageId}`;
    const e = events.get(id)!;
    assert.deepEqual(Object.keys(e), LICC_KEYS);
    assert.equal(e.licc_version, 1);
    assert.equal(e.from, "Alice");
    assert.equal(e.subject, "feishu message from Alice via main");
    assert.equal(e.wake, true);
    assert.match(String(e.received_at), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);
    assert.match(String(e.body), /Feishu/);
    assert.ok(String(e.body).includes(`#${id}`));
    const meta = e.metadata as Rec;
    assert.deepEqual(Object.keys(meta), METADATA_KEYS);
    assert.deepEqual(
      { ...meta, recent_messages: null, latest_incoming: null },
      {
        message_id: id,
        account: "main",
        chat_id: D.aliceP2p,
        chat_type: "p2p",
        thread_id: null,
        from_open_id: D.alice.openId,
        platform: "feishu",
        conversation_ref: `main:${D.aliceP2p}`,
        message_ref: id,
        preview_truncated: false,
        full_length: 8,
        has_media: false,
        is_voice_transcript: false,
        voice_duration: null,
        message_type: "text",
        recent_messages: null,
        latest_incoming: null,
      },
    );
    const recent = meta.recent_messages as Rec[];
    assert.equal(recent.length, 1);
    assert.equal(recent[0]!.id, id);
    assert.equal(recent[0]!.is_current, true);
    assert.equal(recent[0]!.text, "hi there");
    assert.equal((meta.latest_incoming as Rec).id, id);

    // Eleven more, one of them long and one a reply: the window keeps the last ten.
    const ids = [first.messageId!];
    for (let n = 2; n <= 12; n++) {
      const text = n === 7 ? "x".repeat(600) : `message ${n}`;
      const replyTo = n === 12 ? ids[0] : undefined;
      ids.push(emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text, replyTo }).messageId!);
    }
    await bridge.channel.atLeast(12);
    const last = (await liccEvents(bridge)).get(`main:${D.aliceP2p}:${ids[11]}`)!;
    const window = (last.metadata as Rec).recent_messages as Rec[];
    assert.deepEqual(window.map((i) => i.id), ids.slice(2).map((m) => `main:${D.aliceP2p}:${m}`));
    assert.deepEqual(window.map((i) => i.is_current === true), [...Array(9).fill(false), true]);
    assert.deepEqual(window.map((i) => i.direction), Array(10).fill("incoming"));
    const long = window[4]!;
    assert.equal(long.text_truncated, true);
    assert.equal([...String(long.text)].length, 500);
    assert.ok(String(long.text).endsWith("…"));
    assert.ok(JSON.stringify(last.metadata).length < 20_000);
    const reply = (last.metadata as Rec).latest_incoming as Rec;
    assert.equal(reply.parent_id, ids[0]);
    assert.equal(reply.reply_to, `main:${D.aliceP2p}:${ids[0]}`);
    // Never a raw envelope or content in what the agent is woken with.
    for (const item of window) {
      assert.ok(!("feishu" in item) && !("content" in item));
    }
    const longEvent = (await liccEvents(bridge)).get(`main:${D.aliceP2p}:${ids[6]}`)!;
    assert.equal((longEvent.metadata as Rec).preview_truncated, true);
    assert.equal((longEvent.metadata as Rec).full_length, 600);
  } finally {
    await bridge.close();
  }
});

Deno.test("LICC: the window interleaves the agent's own sends as outgoing items from me, in date order", async () => {
  await using emu = await startEmulator();
  const bridge = await startLingTai(emu);
  try {
    await emu.ws.whenReady();
    const m1 = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "question" });
    await bridge.channel.atLeast(1);
    const sent = await bridge.call("send", {
      receive_id: D.aliceP2p,
      receive_id_type: "chat_id",
      text: "answer",
    });
    assert.equal(sent.status, "sent");
    const m3 = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "thanks" });
    await bridge.channel.atLeast(2);
    const e = (await liccEvents(bridge)).get(`main:${D.aliceP2p}:${m3.messageId}`)!;
    const items = (e.metadata as Rec).recent_messages as Rec[];
    assert.deepEqual(items.map((i) => i.id), [
      `main:${D.aliceP2p}:${m1.messageId}`,
      sent.message_id,
      `main:${D.aliceP2p}:${m3.messageId}`,
    ]);
    assert.deepEqual(items.map((i) => i.direction), ["incoming", "outgoing", "incoming"]);
    assert.deepEqual(items.map((i) => i.sender), ["Alice", "me", "Alice"]);
    assert.deepEqual(items.map((i) => i.is_current === true), [false, false, true]);
    assert.deepEqual(items.map((i) => i.text_truncated), [false, false, false]);
    assert.equal(((e.metadata as Rec).latest_incoming as Rec).id, items[2]!.id);
    // The send took the chat's Typing away; the next message started a new one (both a moment
    // after: presence is never awaited).
    const emojis = (id: string) => emu.reactions(id).map((r) => r.emojiType).sort().join();
    await emu.waitFor(() =>
      emojis(m1.messageId!) === "OK" && emojis(m3.messageId!) === "OK,Typing"
    );
  } finally {
    await bridge.close();
  }
});

Deno.test("LICC: topic messages carry the thread and mentions; attachments appear on the current item only, without keys", async () => {
  await using emu = await startEmulator();
  for (let n = 1; n <= 21; n++) {
    const id = String(n).padStart(2, "0");
    emu.world.addUser(makeUser({
      openId: `ou_emu_u${id}`,
      unionId: `on_emu_u${id}`,
      userId: `emu_u${id}`,
      name: `User ${id}`,
      email: `u${id}@emu.example`,
    }));
  }
  const bridge = await startLingTai(emu, {
    transcriber: { command: stubTranscriber() },
  });
  try {
    await emu.ws.whenReady();
    const root = emu.userSends({
      user: D.alice.openId,
      chat: D.topics,
      text: "start",
      mentions: ["bot"],
    });
    const inTopic = emu.userSends({
      user: D.alice.openId,
      chat: D.topics,
      text: "hello",
      mentions: ["bot", D.bob.openId],
      replyTo: root.messageId,
      inThread: true,
    });
    await bridge.channel.atLeast(2);
    const [, rec] = await bridge.records(D.topics);
    assert.equal(rec!.id, `main:${D.topics}:${inTopic.messageId}`);
    assert.match(String(rec!.thread_id), /^omt_/);
    assert.equal(rec!.root_id, root.messageId);
    assert.equal(rec!.reply_to, `main:${D.topics}:${root.messageId}`);
    assert.equal(rec!.text, "@Bob hello");
    assert.deepEqual(rec!.content, { kind: "text", text: "@EmuBot @Bob hello" });
    assert.equal((rec!.mentions as Rec[])[0]!.is_bot, true);
    assert.equal(rec!.from_name, "Alice");
    assert.equal(rec!.sender_type, "user");
    const topicEvent = (await liccEvents(bridge)).get(String(rec!.id))!;
    const meta = topicEvent.metadata as Rec;
    assert.equal(meta.thread_id, rec!.thread_id);
    const latest = meta.latest_incoming as Rec;
    assert.equal(latest.type, "text");
    assert.equal(latest.thread_id, rec!.thread_id);
    assert.equal((latest.mentions as Rec[]).length, 2);
    assert.ok(!("feishu" in latest) && !("content" in latest));

    // A post mentioning 21 people: the item keeps 20.
    const crowd = Array.from({ length: 21 }, (_, i) => `ou_emu_u${String(i + 1).padStart(2, "0")}`);
    const post = emu.userSends({
      user: D.alice.openId,
      chat: D.aliceP2p,
      post: { title: "all hands", content: [[{ tag: "text", text: "agenda" }]] },
      mentions: crowd,
    });
    // A media message, then a plain one: only the current item lists attachments.
    const ogg = fixture("voice_hello.ogg");
    const voice = emu.userSends({
      user: D.alice.openId,
      chat: D.aliceP2p,
      audio: { bytes: ogg, duration: 1710 },
    });
    const after = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "did you hear?" });
    await bridge.channel.atLeast(5);
    // A download that fails: the projection says so and points at feishu.read.
    emu.faults.add({
      method: "GET",
      path: "/open-apis/im/v1/messages/:message_id/resources/:file_key",
      times: 1,
      respond: { status: 400, code: 234003, msg: "download unavailable" },
    });
    const failed = emu.userSends({
      user: D.bob.openId,
      chat: D.bobP2p,
      file: { bytes: new TextEncoder().encode("x"), name: "report.txt" },
    });
    await bridge.channel.atLeast(6);
    const events = await liccEvents(bridge);
    const postItem = (events.get(`main:${D.aliceP2p}:${post.messageId}`)!.metadata as Rec)
      .latest_incoming as Rec;
    assert.equal(postItem.type, "post");
    assert.equal((postItem.mentions as unknown[]).length, 20);
    assert.equal(postItem.mentions_truncated, true);

    const voiceEvent = events.get(`main:${D.aliceP2p}:${voice.messageId}`)!;
    assert.equal(voiceEvent.subject, "feishu voice message from Alice via main (transcribed)");
    const vm = voiceEvent.metadata as Rec;
    assert.equal(vm.is_voice_transcript, true);
    assert.equal(vm.has_media, true);
    assert.equal(typeof vm.voice_duration, "number");
    const current = vm.latest_incoming as Rec;
    assert.equal(current.is_voice_transcript, true);
    const [att] = current.attachments as Rec[];
    assert.deepEqual(Object.keys(att!).sort(), [
      "duration_ms",
      "filename",
      "path",
      "size",
      "status",
      "transcription_status",
      "type",
    ]);
    const [stored] = (await bridge.records(D.aliceP2p)).filter((r) =>
      r.feishu_message_id === voice.messageId
    );
    assert.equal(att!.path, (stored!.attachments as Rec[])[0]!.path);
    assert.match(String(current.comment), /inspect the listed paths/);
    assert.ok(!JSON.stringify(vm).includes(String((stored!.content as Rec).file_key)));

    const failedItem = (events.get(`main:${D.bobP2p}:${failed.messageId}`)!.metadata as Rec)
      .latest_incoming as Rec;
    const [failedAtt] = failedItem.attachments as Rec[];
    assert.deepEqual({ ...failedAtt, error: null }, {
      type: "file",
      status: "failed",
      filename: "report.txt",
      error: null,
    });
    assert.match(String(failedAtt!.error), /download unavailable/);
    assert.match(String(failedItem.comment), /feishu\.read/);

    const afterEvent = events.get(`main:${D.aliceP2p}:${after.messageId}`)!;
    const history = ((afterEvent.metadata as Rec).recent_messages as Rec[])
      .find((i) => i.id === `main:${D.aliceP2p}:${voice.messageId}`)!;
    assert.equal(history.attachments, undefined);
    assert.equal(history.comment, undefined);
  } finally {
    await bridge.close();
  }
});

Deno.test("Claude channel: pushes reach a real MCP client with routing meta, attachment paths only in meta, and tag delimiters removed", async () => {
  await using emu = await startEmulator();
  emu.world.addUser(makeUser({
    openId: "ou_emu_eve",
    unionId: "on_emu_eve",
    userId: "emu_eve",
    name: "Eve <admin>; [x]",
    email: "eve@emu.example",
  }));
  emu.world.chats.get(D.team)!.members.push("ou_emu_eve");
  const bridge = await startBridge({ config: bridgeConfig(emu.url) });
  try {
    const caps = bridge.server.client.getServerCapabilities();
    assert.deepEqual(caps?.experimental?.["claude/channel"], {});
    await emu.ws.whenReady();
    const text = emu.userSends({
      user: "ou_emu_eve",
      chat: D.team,
      text: "look at this",
      mentions: ["bot"],
    });
    const pic = crypto.getRandomValues(new Uint8Array(64));
    const image = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, image: { bytes: pic } });
    const pushes = await bridge.channel.atLeast(2);
    const byId = new Map(pushes.map((p) => [p.meta.message_id, p]));
    const first = byId.get(`main:${D.team}:${text.messageId}`)!;
    assert.equal(first.content, "look at this");
    assert.equal(first.meta.user, "Eve _admin__ _x_");
    assert.equal(first.meta.chat_id, D.team);
    assert.equal(first.meta.chat_type, "group");
    assert.equal(first.meta.open_id, "ou_emu_eve");
    assert.equal(first.meta.account, "main");
    assert.match(first.meta.ts!, /^\d{4}-\d\d-\d\dT/);
    const second = byId.get(`main:${D.aliceP2p}:${image.messageId}`)!;
    const [stored] = (await bridge.records(D.aliceP2p)).filter((r) =>
      r.feishu_message_id === image.messageId
    );
    const path = String((stored!.attachments as Rec[])[0]!.path);
    assert.equal(second.meta.attachment_1_path, path);
    assert.equal(second.meta.attachment_1_kind, "image");
    assert.ok(!second.content.includes(path));
    assert.deepEqual(await Deno.readFile(path), pic);
    for (const p of pushes) {
      for (const [k, v] of Object.entries(p.meta)) {
        assert.match(k, /^[a-z][a-z0-9_]*$/);
        assert.doesNotMatch(v, /[<>\[\];\r\n]/);
      }
    }

    // resources/updated follows the subscription.
    assert.deepEqual(bridge.updates.items, ["feishu://inbox", "feishu://inbox"]);
    await bridge.unsubscribe();
    emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "quietly" });
    await bridge.channel.atLeast(3);
    assert.equal(bridge.updates.items.length, 2);
    const inbox = JSON.parse(await bridge.server.resource("feishu://inbox"));
    assert.deepEqual(
      inbox.accounts[0].conversations.map((c: Rec) => [c.chat_id, c.unread]).sort(),
      [[D.aliceP2p, 1], [D.team, 1]], // the image was read above; "quietly" is new
    );
  } finally {
    await bridge.close();
  }
});

Deno.test("notify config turns lanes off: no channel pushes with claude_channel false, no files with licc false", async () => {
  await using emu = await startEmulator();
  const bridge = await startLingTai(emu, { notify: { licc: false, claude_channel: false } });
  try {
    await emu.ws.whenReady();
    emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "silent" });
    await bridge.updates.atLeast(1);
    assert.deepEqual(bridge.channel.items, []);
    await assert.rejects(
      Deno.stat(join(bridge.server.workdir, ".mcp_inbox")),
      Deno.errors.NotFound,
    );
    const status = await bridge.status();
    assert.deepEqual(status.notifications, { licc: 0, channel: 0, failures: 0 });
  } finally {
    await bridge.close();
  }
});
