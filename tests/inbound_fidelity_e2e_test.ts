/**
 * End to end, inbound fidelity: a forwarded chat history is expanded into a
 * transcript with its media downloaded, bounded in depth, and a failed
 * expansion keeps the placeholder with a traceable reason; a reply to a
 * message the bot never received carries its parent's sender and preview
 * (fetched once), or says the parent could not be read; and the shapes
 * Feishu really sends (object template variables, unresolvable `at`s,
 * locale-wrapped posts, card selects and pickers) read as a person sees them.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { DEFAULT_IDS as D, type Emulator, startEmulator } from "../lib/emulator/mod.ts";
import { FORWARD_LIMITS } from "../lib/inbound/related/mod.ts";
import { type Bridge, bridgeConfig, startBridge } from "./_inbound.ts";

type Rec = Record<string, unknown>;

const GET_MESSAGE = "/open-apis/im/v1/messages/:message_id";
const RESOURCE = "/open-apis/im/v1/messages/:message_id/resources/:file_key";
const MCP_NAME = "feishu";

/** A LingTai-style bridge, so both the LICC files and the Claude channel are written. */
async function startLingTai(emu: Emulator): Promise<Bridge> {
  const workdir = await Deno.makeTempDir({ prefix: "feishu-mcp-fidelity-" });
  return await startBridge({
    workdir,
    config: bridgeConfig(emu.url),
    env: { LINGTAI_AGENT_DIR: workdir, LINGTAI_MCP_NAME: MCP_NAME },
  });
}

/** The LICC event written for one record id. */
async function liccEvent(bridge: Bridge, id: string): Promise<Rec> {
  const dir = join(bridge.server.workdir, ".mcp_inbox", MCP_NAME);
  for await (const e of Deno.readDir(dir)) {
    const event = JSON.parse(await Deno.readTextFile(join(dir, e.name)));
    if (event.metadata.message_id === id) return event;
  }
  throw new Error(`Expected a LICC event for ${id} but found none`);
}

/** Requests to one route pattern whose path names `messageId`. */
function requestsFor(emu: Emulator, path: string, messageId: string) {
  return emu.requests({ method: "GET", path }).filter((r) => r.path.includes(messageId));
}

Deno.test("a forwarded history of three messages reads as a transcript, with the image downloaded by the forward's id", async () => {
  await using emu = await startEmulator();
  const bridge = await startLingTai(emu);
  try {
    await emu.ws.whenReady();
    const image = crypto.getRandomValues(new Uint8Array(700));
    const t0 = Date.parse("2026-11-30T09:00:00Z");
    const fwd = emu.userForwards({
      user: D.alice.openId,
      chat: D.aliceP2p,
      messages: [
        { user: D.bob.openId, text: "the release is on Friday", createTime: t0 },
        { user: D.alice.openId, image: { bytes: image }, createTime: t0 + 60_000 },
        { user: D.bob.openId, text: "ok, I will\nprepare the notes", createTime: t0 + 120_000 },
      ],
    });
    await bridge.updates.atLeast(1);
    const [rec] = await bridge.records(D.aliceP2p);
    assert.equal(rec!.message_type, "merge_forward");
    const lines = String(rec!.text).split("\n");
    assert.deepEqual(lines, [
      `<forwarded_messages count="3">`,
      "[2026-11-30T09:00:00Z] Bob: the release is on Friday",
      `[2026-11-30T09:01:00Z] Alice: ${lines[2]!.slice(lines[2]!.indexOf(": ") + 2)}`,
      "[2026-11-30T09:02:00Z] Bob: ok, I will",
      "  prepare the notes",
      "</forwarded_messages>",
    ]);
    assert.match(lines[2]!, /^\[2026-11-30T09:01:00Z\] Alice: !\[image\]\(img_[^)]+\)$/);
    const content = rec!.content as Rec;
    assert.equal(content.kind, "merge_forward");
    assert.equal(content.truncated, false);
    assert.equal(content.error, null);
    const items = content.items as Rec[];
    assert.deepEqual(items.map((i) => [i.from_name, i.message_type, i.date]), [
      ["Bob", "text", "2026-11-30T09:00:00Z"],
      ["Alice", "image", "2026-11-30T09:01:00Z"],
      ["Bob", "text", "2026-11-30T09:02:00Z"],
    ]);
    assert.deepEqual(items.map((i) => i.from_id), [D.bob.openId, D.alice.openId, D.bob.openId]);

    // The image is an attachment of the forward, downloaded by the forward's id, byte for byte.
    const [att] = rec!.attachments as Rec[];
    assert.equal(att!.status, "downloaded");
    assert.equal(att!.type, "image");
    const dir = join(bridge.server.workdir, "feishu", "main", "attachments", fwd.messageId!);
    assert.ok(String(att!.path).startsWith(`${dir}/`));
    assert.deepEqual(await Deno.readFile(String(att!.path)), image);
    assert.equal(requestsFor(emu, RESOURCE, fwd.messageId!).length, 1);
    assert.equal(requestsFor(emu, GET_MESSAGE, fwd.messageId!).length, 1);

    // The agent reads the transcript in both lanes, the file path only in meta.
    const push = (await bridge.channel.atLeast(1))[0]!;
    assert.match(push.content, /Bob: the release is on Friday/);
    assert.equal(push.meta.attachment_1_path, att!.path);
    const licc = await liccEvent(bridge, String(rec!.id));
    const latest = (licc.metadata as Rec).latest_incoming as Rec;
    assert.match(String(latest.text), /Bob: the release is on Friday/);
    assert.equal((latest.attachments as Rec[])[0]!.path, att!.path);
  } finally {
    await bridge.close();
  }
});

Deno.test("a forward nested deeper than the bound is summarised below its last shown level", async () => {
  await using emu = await startEmulator();
  const bridge = await startBridge({ config: bridgeConfig(emu.url) });
  try {
    await emu.ws.whenReady();
    const levels = FORWARD_LIMITS.depth + 2;
    // Level n holds a text "level n" and, below the last level, a forward of level n + 1.
    type Fwd = Parameters<Emulator["userForwards"]>[0]["messages"][number];
    const level = (n: number): Fwd[] => [
      { user: D.bob.openId, text: `level ${n}` },
      ...(n < levels ? [{ user: D.bob.openId, forward: level(n + 1) }] : []),
    ];
    emu.userForwards({ user: D.alice.openId, chat: D.aliceP2p, messages: level(1) });
    await bridge.updates.atLeast(1);
    const [rec] = await bridge.records(D.aliceP2p);
    const text = String(rec!.text);
    for (let n = 1; n <= FORWARD_LIMITS.depth; n++) assert.match(text, new RegExp(`level ${n}\\b`));
    assert.doesNotMatch(text, new RegExp(`level ${FORWARD_LIMITS.depth + 1}\\b`));
    assert.match(text, /<forwarded_messages count="2" omitted="depth limit"\/>/);
    assert.match(text, /not shown/);
    const content = rec!.content as Rec;
    assert.equal(content.truncated, true);
    // Each shown level holds the next one's items, down to the bound.
    let items = content.items as Rec[];
    for (let n = 1; n < FORWARD_LIMITS.depth; n++) {
      assert.equal(items[0]!.text, `level ${n}`);
      items = (items[1]!.content as Rec).items as Rec[];
    }
    const deepest = items[1]!.content as Rec;
    assert.deepEqual([deepest.items, deepest.truncated], [[], true]);
    // One read of the whole history, whatever its depth.
    assert.equal(emu.requests({ method: "GET", path: GET_MESSAGE }).length, 1);
  } finally {
    await bridge.close();
  }
});

Deno.test("a forward Feishu will not expand keeps its placeholder, with a bounded reason in the record and the log", async () => {
  await using emu = await startEmulator();
  const bridge = await startBridge({ config: bridgeConfig(emu.url) });
  try {
    await emu.ws.whenReady();
    emu.faults.add({
      method: "GET",
      path: GET_MESSAGE,
      respond: { code: 230027, msg: `Lack of necessary permissions ${"x".repeat(400)}` },
    });
    const fwd = emu.userForwards({
      user: D.alice.openId,
      chat: D.aliceP2p,
      messages: [{ user: D.bob.openId, text: "hidden" }],
    });
    await bridge.updates.atLeast(1);
    const [rec] = await bridge.records(D.aliceP2p);
    assert.equal(rec!.feishu_message_id, fwd.messageId);
    assert.equal(rec!.text, "<forwarded_messages/>");
    const content = rec!.content as Rec;
    assert.deepEqual(content.items, []);
    assert.match(String(content.error), /forwarded messages could not be fetched/);
    assert.match(String(content.error), /230027|permission/i);
    assert.ok(Array.from(String(content.error)).length <= 200);
    assert.equal(rec!.error, content.error);
    // The message still reached the agent, and the operator can trace why it reads so.
    // (The channel shows tag brackets as ‹ › so no message text can close its tag.)
    assert.equal((await bridge.channel.atLeast(1))[0]!.content, "‹forwarded_messages/›");
    const line = bridge.server.stderr().split("\n").find((l) =>
      l.includes("feishu_forward_expansion_failed")
    );
    assert.ok(line, "the failure is logged");
    assert.match(line!, new RegExp(String(rec!.id)));
    assert.match(line!, /PERMISSION_DENIED/);
  } finally {
    await bridge.close();
  }
});

Deno.test("a reply to a message from before the bot's time carries its parent's sender and preview, fetched once", async () => {
  await using emu = await startEmulator();
  const bridge = await startLingTai(emu);
  try {
    await emu.ws.whenReady();
    const old = emu.storeMessage({
      user: D.bob.openId,
      chat: D.team,
      text: "Draft plan:\nship the bridge on Friday",
      createTime: Date.parse("2026-11-01T10:00:00Z"),
    });
    const reply = emu.userSends({
      user: D.alice.openId,
      chat: D.team,
      mentions: ["bot"],
      replyTo: old.messageId,
      text: "is this still the plan?",
    });
    await bridge.updates.atLeast(1);
    const second = emu.userSends({
      user: D.alice.openId,
      chat: D.team,
      mentions: ["bot"],
      replyTo: old.messageId,
      text: "and who owns it?",
    });
    await bridge.updates.atLeast(2);
    const [first, again] = await bridge.records(D.team);
    assert.equal(first!.feishu_message_id, reply.messageId);
    const parentId = `main:${D.team}:${old.messageId}`;
    assert.equal(first!.reply_to, parentId);
    assert.deepEqual(first!.reply_to_message, {
      id: parentId,
      source: "feishu",
      message_type: "text",
      from_id: D.bob.openId,
      from_name: "Bob",
      sender_type: "user",
      date: "2026-11-01T10:00:00Z",
      text: "Draft plan: ship the bridge on Friday",
    });
    assert.deepEqual(again!.reply_to_message, first!.reply_to_message);
    assert.equal(again!.feishu_message_id, second.messageId);
    // Fetched once for both replies.
    assert.equal(requestsFor(emu, GET_MESSAGE, old.messageId).length, 1);

    // Both lanes show what is being answered.
    const pushes = await bridge.channel.atLeast(2);
    assert.equal(pushes[0]!.meta.reply_to_user, "Bob");
    assert.equal(pushes[0]!.meta.reply_to_text, "Draft plan: ship the bridge on Friday");
    const licc = await liccEvent(bridge, String(first!.id));
    const latest = (licc.metadata as Rec).latest_incoming as Rec;
    assert.deepEqual(latest.reply_to_preview, {
      sender: "Bob",
      date: "2026-11-01T10:00:00Z",
      text: "Draft plan: ship the bridge on Friday",
    });
    assert.match(String(licc.body), /↳ .*Bob: Draft plan: ship the bridge on Friday/);
  } finally {
    await bridge.close();
  }
});

Deno.test("a reply's parent from the store is not fetched; an unreadable parent is marked, never guessed", async () => {
  await using emu = await startEmulator();
  const bridge = await startBridge({ config: bridgeConfig(emu.url) });
  try {
    await emu.ws.whenReady();
    const known = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "first words" });
    await bridge.updates.atLeast(1);
    emu.userSends({
      user: D.alice.openId,
      chat: D.aliceP2p,
      replyTo: known.messageId,
      text: "about that",
    });
    const hidden = emu.storeMessage({
      user: D.alice.openId,
      chat: D.aliceP2p,
      text: "you may not read this",
      unreadable: true,
    });
    emu.userSends({
      user: D.alice.openId,
      chat: D.aliceP2p,
      replyTo: hidden.messageId,
      text: "and this one?",
    });
    await bridge.updates.atLeast(3);
    const [, fromStore, unreadable] = await bridge.records(D.aliceP2p);
    assert.deepEqual(fromStore!.reply_to_message, {
      id: `main:${D.aliceP2p}:${known.messageId}`,
      source: "store",
      message_type: "text",
      from_id: D.alice.openId,
      from_name: "Alice",
      sender_type: "user",
      date: (await bridge.records(D.aliceP2p))[0]!.date,
      text: "first words",
    });
    assert.equal(requestsFor(emu, GET_MESSAGE, known.messageId!).length, 0);
    const parent = unreadable!.reply_to_message as Rec;
    assert.equal(parent.source, "unreadable");
    assert.equal(parent.id, `main:${D.aliceP2p}:${hidden.messageId}`);
    assert.match(String(parent.error), /permission/i);
    assert.equal(parent.text, undefined);
    assert.equal(parent.from_id, undefined);
    const pushes = await bridge.channel.atLeast(3);
    assert.match(pushes[2]!.meta.reply_to_unreadable!, /permission/i);
    assert.equal(pushes[2]!.meta.reply_to_text, undefined);
  } finally {
    await bridge.close();
  }
});

Deno.test("a parent Feishu failed to answer for a moment is marked unreadable once and fetched again for the next reply", async () => {
  await using emu = await startEmulator();
  const bridge = await startBridge({ config: bridgeConfig(emu.url) });
  try {
    await emu.ws.whenReady();
    const old = emu.storeMessage({ user: D.bob.openId, chat: D.team, text: "the old plan" });
    emu.faults.add({
      method: "GET",
      path: GET_MESSAGE,
      times: 1,
      respond: { status: 503, code: 1500, msg: "service unavailable" },
    });
    const ask = (text: string) =>
      emu.userSends({
        user: D.alice.openId,
        chat: D.team,
        mentions: ["bot"],
        replyTo: old.messageId,
        text,
      });
    ask("what was this?");
    await bridge.updates.atLeast(1);
    ask("and now?");
    await bridge.updates.atLeast(2);
    const [first, second] = await bridge.records(D.team);
    const failed = first!.reply_to_message as Rec;
    assert.equal(failed.source, "unreadable");
    assert.equal(failed.text, undefined);
    assert.ok(String(failed.error).length > 0);
    // A transient failure is not remembered: the next reply reads the parent.
    assert.deepEqual(
      [(second!.reply_to_message as Rec).source, (second!.reply_to_message as Rec).text],
      ["feishu", "the old plan"],
    );
    assert.equal(requestsFor(emu, GET_MESSAGE, old.messageId).length, 2);
  } finally {
    await bridge.close();
  }
});

Deno.test("the shapes Feishu really sends read as a person sees them: object template variables, unlisted ats, locale-wrapped posts, card controls", async () => {
  await using emu = await startEmulator();
  const bridge = await startBridge({ config: bridgeConfig(emu.url) });
  try {
    await emu.ws.whenReady();
    const send = (msgType: string, content: unknown, resources?: string[]) =>
      emu.userSends({
        user: D.alice.openId,
        chat: D.aliceP2p,
        raw: { msgType, content, resources },
      });
    send("system", {
      template: "{divider_text}",
      divider_text: { text: "新会话", i18n_text: { zh_cn: "新会话", en_us: "New session" } },
    });
    // Neither key is in the event's mentions (there are none): nothing is made up.
    send("post", {
      title: "",
      content: [[
        { tag: "at", user_id: "@_user_1", user_name: "Tom" },
        { tag: "text", text: " 请看一下，" },
        { tag: "at", user_id: "@_user_2" },
        { tag: "text", text: " 也看看" },
      ]],
    });
    const image = crypto.getRandomValues(new Uint8Array(300));
    const key = emu.uploadResource({ bytes: image });
    const wrapped = send("post", {
      post: {
        zh_cn: {
          title: "上线检查",
          content: [[{ tag: "text", text: "截图如下：" }], [{ tag: "img", image_key: key }]],
        },
      },
    }, [key]);
    send("interactive", {
      schema: "2.0",
      body: {
        elements: [
          {
            tag: "select_static",
            placeholder: { tag: "plain_text", content: "Choose a region" },
            options: [
              { text: { tag: "plain_text", content: "华北" }, value: "cn-north" },
              { text: { tag: "plain_text", content: "华东" }, value: "cn-east" },
            ],
          },
          {
            tag: "multi_select_static",
            placeholder: { tag: "plain_text", content: "Services" },
            options: ["api", "web"],
          },
          {
            tag: "date_picker",
            placeholder: { tag: "plain_text", content: "Pick a date" },
            initial_date: "2026-08-05",
          },
        ],
      },
    });
    await bridge.updates.atLeast(4);
    const [system, ats, post, card] = await bridge.records(D.aliceP2p);
    assert.equal(system!.text, "新会话");
    assert.equal(ats!.text, "@Tom 请看一下，@user 也看看");
    assert.deepEqual(ats!.mentions, []);
    assert.equal((post!.content as Rec).kind, "post");
    assert.equal(post!.text, `**上线检查**\n\n截图如下：\n![image](${key})`);
    const [att] = post!.attachments as Rec[];
    assert.equal(att!.status, "downloaded");
    assert.deepEqual(await Deno.readFile(String(att!.path)), image);
    assert.equal(requestsFor(emu, RESOURCE, wrapped.messageId!).length, 1);
    assert.deepEqual(String(card!.text).split("\n"), [
      "[select: Choose a region — options: 华北, 华东]",
      "[multi-select: Services — options: api, web]",
      "[date picker: Pick a date — initial: 2026-08-05]",
    ]);
  } finally {
    await bridge.close();
  }
});
