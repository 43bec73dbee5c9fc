import assert from "node:assert/strict";
import { join } from "node:path";
import { normaliseMessage } from "../inbound/mod.ts";
import { at, CHAT, inbound, incoming, NOW, outgoing } from "./testdata/records.ts";
import {
  buildMessageEvent,
  type LiccEvent,
  liccEventIdFor,
  liccInboxDir,
  MAX_SUBJECT_CHARS,
  validateLiccEvent,
  writeLiccEvent,
} from "./licc.ts";
import { buildPreview } from "./preview.ts";
import type { RawEnvelope } from "../feishu/mod.ts";

const rawEvent: RawEnvelope = {
  schema: "2.0",
  header: {
    event_id: "ev_new",
    event_type: "im.message.receive_v1",
    create_time: String(NOW - 5000),
    token: "",
    app_id: "cli_a1b2c3d4e5f6a7b8",
    tenant_key: "tk",
  },
  event: {
    sender: {
      sender_id: { open_id: "ou_alice", union_id: "on_alice" },
      sender_type: "user",
      tenant_key: "tk",
    },
    message: {
      message_id: "om_new",
      create_time: String(NOW - 5000),
      chat_id: CHAT,
      chat_type: "p2p",
      message_type: "text",
      content: '{"text":"hi there"}',
    },
  },
};

Deno.test("buildMessageEvent() turns a raw inbound event into one waking LICC event", () => {
  const out = normaliseMessage(rawEvent, { alias: "main", nowMs: NOW });
  assert.ok(out);
  const record = out.record;
  const preview = buildPreview(
    [
      incoming(inbound("om_old", { date: at(1) })),
      outgoing("om_me", { date: at(2) }),
      incoming(record),
    ],
    { alias: "main", chatId: CHAT, currentId: record.id, nowMs: NOW },
  );
  const event = buildMessageEvent(record, { alias: "main", preview, nowMs: NOW });
  assert.equal(event.wake, true);
  assert.equal(event.licc_version, 1);
  assert.ok(event.subject.includes("feishu message from"));
  assert.ok(event.body.includes("Feishu"));
  assert.ok(event.body.includes("#main:oc_chat:om_new"));
  const m = event.metadata;
  assert.equal(m.platform, "feishu");
  assert.equal(m.conversation_ref, "main:oc_chat");
  assert.equal(m.message_ref, "main:oc_chat:om_new");
  assert.equal(m.message_id, "main:oc_chat:om_new");
  assert.equal(m.chat_id, CHAT);
  assert.equal(m.account, "main");
  assert.equal(m.thread_id, null);
  const recent = m.recent_messages as { id: string; is_current: boolean; text: string }[];
  assert.deepEqual(
    recent.at(-1) && [recent.at(-1)?.id, recent.at(-1)?.is_current, recent.at(-1)?.text],
    [
      "main:oc_chat:om_new",
      true,
      "hi there",
    ],
  );
  assert.equal((m.latest_incoming as { id: string }).id, "main:oc_chat:om_new");
  assert.equal(event.received_at, "2026-08-03T09:15:00.000+00:00");
  assert.equal(validateLiccEvent(event), undefined);
});

Deno.test("buildMessageEvent() fills the message metadata table", () => {
  const record = inbound("om_1", {
    text: "y".repeat(301),
    thread_id: "omt_1",
    chat_type: "topic",
    media: { type: "image", file_key: "k" },
    message_type: "image",
  });
  const m = buildMessageEvent(record, { alias: "main", preview: null, nowMs: NOW }).metadata;
  assert.deepEqual(m, {
    message_id: "main:oc_chat:om_1",
    account: "main",
    chat_id: CHAT,
    chat_type: "topic",
    thread_id: "omt_1",
    from_open_id: "ou_alice",
    platform: "feishu",
    conversation_ref: "main:oc_chat",
    message_ref: "main:oc_chat:om_1",
    preview_truncated: true,
    full_length: 301,
    has_media: true,
    is_voice_transcript: false,
    voice_duration: null,
    message_type: "image",
  });
});

Deno.test("buildMessageEvent() truncates an over-long sender name instead of dropping the notification", () => {
  const record = inbound("om_1", { from_name: "Name".repeat(100) });
  const event = buildMessageEvent(record, { alias: "main", preview: null, nowMs: NOW });
  assert.equal(Array.from(event.subject).length, MAX_SUBJECT_CHARS);
  assert.ok(event.subject.startsWith("feishu message from NameName"));
  assert.ok(event.subject.endsWith("… via main"));
  assert.equal(validateLiccEvent(event), undefined);
});

Deno.test("buildMessageEvent() never leaves from empty", () => {
  const cases: [Partial<ReturnType<typeof inbound>>, string][] = [
    [{ from_name: "Ann" }, "Ann"],
    [{ from_name: null, from_open_id: "ou_c" }, "Contact C"],
    [{ from_name: null, from_open_id: "ou_x" }, "ou_x"],
    [{ from_name: null, from_open_id: "" }, "unknown"],
  ];
  for (const [extra, want] of cases) {
    const event = buildMessageEvent(inbound("om_1", extra), {
      alias: "main",
      preview: null,
      nowMs: NOW,
      contactName: (id) => (id === "ou_c" ? "Contact C" : null),
    });
    assert.equal(event.from, want);
    assert.equal(validateLiccEvent(event), undefined);
  }
});

Deno.test("buildMessageEvent() uses the voice subject and transcript fields for a transcribed message", () => {
  const record = inbound("om_v", {
    message_type: "audio",
    text: "call me back",
    voice_transcript: { text: "call me back", language: "en", duration: 2.5, segments: [] },
  });
  const event = buildMessageEvent(record, { alias: "main", preview: null, nowMs: NOW });
  assert.equal(event.subject, "feishu voice message from Alice via main (transcribed)");
  assert.equal(event.metadata.is_voice_transcript, true);
  assert.equal(event.metadata.voice_duration, 2.5);
});

Deno.test("buildMessageEvent() falls back to a one-line text body without a preview", () => {
  const event = buildMessageEvent(inbound("om_1", { text: `a\nb${"c".repeat(400)}` }), {
    alias: "main",
    preview: null,
    nowMs: NOW,
  });
  assert.equal(event.body, `a b${"c".repeat(297)}...`);
  assert.equal("recent_messages" in event.metadata, false);
  assert.equal(
    buildMessageEvent(inbound("om_2", { text: "" }), { alias: "main", preview: null, nowMs: NOW })
      .body,
    "(no text — see media or callback)",
  );
});

const valid: LiccEvent = {
  licc_version: 1,
  from: "Ann",
  subject: "s",
  body: "b",
  metadata: {},
  wake: true,
  received_at: "2026-08-03T09:15:00.000+00:00",
};
const invalid: [string, unknown, RegExp][] = [
  ["an empty from", { ...valid, from: "" }, /^Expected from/],
  [
    "a missing subject",
    { ...valid, subject: undefined },
    /^Expected subject to be a non-empty string but found undefined/,
  ],
  [
    "a 201-character subject",
    { ...valid, subject: "s".repeat(201) },
    /at most 200 characters but found 201/,
  ],
  ["a non-string body", { ...valid, body: 3 }, /^Expected body/],
  ["array metadata", { ...valid, metadata: [] }, /^Expected metadata/],
  ["a non-boolean wake", { ...valid, wake: "yes" }, /^Expected wake/],
  ["another version", { ...valid, licc_version: 2 }, /^Expected licc_version/],
];
for (const [name, event, want] of invalid) {
  Deno.test(`validateLiccEvent() rejects ${name}`, () => {
    assert.match(validateLiccEvent(event) ?? "", want);
  });
}

async function withTempDir(fn: (root: string) => Promise<void>) {
  const root = await Deno.makeTempDir({ prefix: "licc-" });
  try {
    await fn(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("writeLiccEvent() writes <event_id>.json with a 32-hex id and leaves no temp file", async () => {
  await withTempDir(async (root) => {
    const dir = liccInboxDir(root);
    const result = await writeLiccEvent({ ...valid, from: "Ann 你好" }, { dir });
    assert.ok(result.written);
    assert.match(result.eventId, /^[0-9a-f]{32}$/);
    assert.equal(result.path, join(root, ".mcp_inbox", "feishu", `${result.eventId}.json`));
    const text = await Deno.readTextFile(result.path);
    assert.ok(text.includes("你好"));
    assert.deepEqual(JSON.parse(text), { ...valid, from: "Ann 你好" });
    assert.deepEqual((await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name), [
      `${result.eventId}.json`,
    ]);
  });
});

Deno.test("writeLiccEvent() takes fresh ids from the injected source", async () => {
  await withTempDir(async (root) => {
    const result = await writeLiccEvent(valid, {
      dir: root,
      newId: () => "0123abcd-0123-4567-89ab-0123456789ab",
    });
    assert.ok(result.written);
    assert.equal(result.eventId, "0123abcd0123456789ab0123456789ab");
  });
});

Deno.test("writeLiccEvent() rewrites the same file for a stable id", async () => {
  await withTempDir(async (root) => {
    const eventId = liccEventIdFor("main:oc_chat:om_1");
    await writeLiccEvent(valid, { dir: root, eventId });
    await writeLiccEvent({ ...valid, body: "second" }, { dir: root, eventId });
    const names = (await Array.fromAsync(Deno.readDir(root))).map((e) => e.name);
    assert.deepEqual(names, [`${eventId}.json`]);
    assert.equal(JSON.parse(await Deno.readTextFile(join(root, names[0] ?? ""))).body, "second");
  });
});

Deno.test("writeLiccEvent() writes nothing for an invalid event or id", async () => {
  await withTempDir(async (root) => {
    const dir = join(root, "inbox");
    assert.deepEqual(await writeLiccEvent({ ...valid, from: "" }, { dir }), {
      written: false,
      reason: 'Expected from to be a non-empty string but found ""',
    });
    const badId = await writeLiccEvent(valid, { dir, eventId: "../escape" });
    assert.equal(badId.written, false);
    await assert.rejects(Deno.stat(dir), Deno.errors.NotFound);
  });
});

Deno.test("liccInboxDir() rejects an MCP name LingTai would not accept", () => {
  assert.throws(() => liccInboxDir("/w", "Feishu"), /Expected the MCP name to match/);
  assert.equal(liccInboxDir("/w", "feishu_2"), "/w/.mcp_inbox/feishu_2");
});
