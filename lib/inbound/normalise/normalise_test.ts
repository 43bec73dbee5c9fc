import assert from "node:assert/strict";
import { BOT_OPEN_ID, CREATED_MS, mention, receiveEnvelope } from "../testdata/envelopes.ts";
import { DELAYED_AFTER_SECONDS, normaliseMessage } from "./normalise.ts";
import { convertContent } from "./registry.ts";

const base = { alias: "main", botOpenId: BOT_OPEN_ID, nowMs: CREATED_MS + 1000 };

Deno.test("normaliseMessage() builds the topic record of the notification checklist", () => {
  const envelope = receiveEnvelope({
    messageId: "om_normalized",
    chatId: "oc_topic",
    chatType: "group",
    threadId: "omt_thread",
    rootId: "om_root",
    parentId: "om_parent",
    content: { text: "@_user_1 hello" },
    mentions: [mention("@_user_1", BOT_OPEN_ID, "Mac PA"), mention("@_user_2", "ou_dan", "Dan")],
    senderOpenId: "ou_sender",
  });
  const out = normaliseMessage(envelope, {
    ...base,
    contactName: (id) => (id === "ou_sender" ? "Sender" : null),
  });
  assert.ok(out);
  const r = out.record;
  assert.equal(r.id, "main:oc_topic:om_normalized");
  assert.equal(r.feishu_message_id, "om_normalized");
  assert.equal(r.chat_type, "topic");
  assert.equal(r.thread_id, "omt_thread");
  assert.equal(r.root_id, "om_root");
  assert.equal(r.parent_id, "om_parent");
  assert.equal(r.reply_to, "main:oc_topic:om_parent");
  assert.equal(r.text, "hello");
  assert.deepEqual(r.content, { kind: "text", text: "@Mac PA hello" });
  assert.equal(r.mentions[0]?.is_bot, true);
  assert.equal(r.mentions[1]?.is_bot, false);
  assert.equal(r.from_name, "Sender");
  assert.equal(r.sender_type, "user");
  assert.equal(r.sender_is_bot, false);
  assert.equal(r.feishu, envelope);
  assert.deepEqual([r.attachments, r.media, r.voice_transcript], [[], null, null]);
});

Deno.test("normaliseMessage() stores a bare @Bot message with empty text", () => {
  const out = normaliseMessage(
    receiveEnvelope({
      chatType: "group",
      content: { text: "@_user_1" },
      mentions: [mention("@_user_1", BOT_OPEN_ID, "Bot")],
    }),
    base,
  );
  assert.equal(out?.record.text, "");
});

Deno.test("normaliseMessage() writes resolved mentions without empty members", () => {
  const out = normaliseMessage(
    receiveEnvelope({
      content: { text: "@_user_1" },
      mentions: [mention("@_user_1", "ou_x", "X")],
    }),
    base,
  );
  assert.deepEqual(out?.record.mentions, [{
    key: "@_user_1",
    open_id: "ou_x",
    union_id: "on_x",
    name: "X",
    is_bot: false,
    tenant_key: "2ca1d211f64f6438",
  }]);
});

Deno.test("normaliseMessage() does not list @all as a mention", () => {
  const out = normaliseMessage(
    receiveEnvelope({
      content: { text: "@_all hi" },
      mentions: [{ key: "@_all", id: { user_id: "all" }, name: "所有人" }],
    }),
    base,
  );
  assert.deepEqual(out?.record.mentions, []);
  assert.equal(out?.record.text, "@all hi");
});

const whitespace: [string, string, string][] = [
  ["collapses spaces left by the bot mention", "hi  @_user_1  there", "hi there"],
  ["keeps newlines", "@_user_1 line one\nline   two", "line one\nline two"],
  ["trims the whole text", "  \t@_user_1\t  ", ""],
  ["keeps other mentions as @Name", "@_user_1 ask @_user_2", "ask @Dan"],
  ["reads a placeholder missing from mentions as @user", "@_user_9 hi", "@user hi"],
  ["does not mistake @_user_10 for the bot's @_user_1", "@_user_10 hi", "@user hi"],
  ["keeps indentation inside a fenced block", "@_user_1\n```\n  a   b\n```", "```\n  a   b\n```"],
];
for (const [name, text, want] of whitespace) {
  Deno.test(`normaliseMessage() ${name}`, () => {
    const out = normaliseMessage(
      receiveEnvelope({
        content: { text },
        mentions: [mention("@_user_1", BOT_OPEN_ID, "Bot"), mention("@_user_2", "ou_dan", "Dan")],
      }),
      base,
    );
    assert.equal(out?.record.text, want);
  });
}

const chatTypes: [string, string | undefined, string][] = [
  ["p2p", undefined, "p2p"],
  ["group", undefined, "group"],
  ["group", "omt_1", "topic"],
  ["topic_group", undefined, "topic"],
  ["private", undefined, "p2p"],
  ["public", undefined, "group"],
  ["", undefined, "unknown"],
  ["something_new", undefined, "unknown"],
];
for (const [raw, thread, want] of chatTypes) {
  Deno.test(`normaliseMessage() maps chat_type "${raw}"${thread ? " with a thread" : ""} to ${want}`, () => {
    const out = normaliseMessage(receiveEnvelope({ chatType: raw, threadId: thread }), base);
    assert.equal(out?.record.chat_type, want);
  });
}

Deno.test("normaliseMessage() falls back to the processing time when create_time is missing or bad", () => {
  for (const createTime of ["", "0", "soon"]) {
    const out = normaliseMessage(receiveEnvelope({ createTime }), { ...base, nowMs: 1000 });
    assert.equal(out?.record.date, "1970-01-01T00:00:01Z");
  }
});

Deno.test("normaliseMessage() flags a message older than the late threshold with delayed_seconds", () => {
  const late = normaliseMessage(receiveEnvelope(), {
    ...base,
    nowMs: CREATED_MS + (DELAYED_AFTER_SECONDS + 5) * 1000,
  });
  assert.equal(late?.record.delayed_seconds, DELAYED_AFTER_SECONDS + 5);
  assert.equal(late?.record.backfilled, undefined);
  const fresh = normaliseMessage(receiveEnvelope(), base);
  assert.equal("delayed_seconds" in (fresh?.record ?? {}), false);
});

Deno.test("normaliseMessage() marks sender_is_bot for app and bot senders", () => {
  for (const [type, want] of [["app", true], ["bot", true], ["user", false]] as const) {
    const out = normaliseMessage(receiveEnvelope({ senderType: type }), base);
    assert.equal(out?.record.sender_is_bot, want);
  }
});

Deno.test("normaliseMessage() returns undefined without a message id or chat id", () => {
  assert.equal(
    normaliseMessage({ schema: "2.0", event: { message: { chat_id: "oc_1" } } }, base),
    undefined,
  );
  assert.equal(normaliseMessage({}, base), undefined);
});

Deno.test("normaliseMessage() leaves from_name null when no contact name is known", () => {
  const out = normaliseMessage(receiveEnvelope(), { ...base, contactName: () => undefined });
  assert.equal(out?.record.from_name, null);
});

Deno.test("convertContent() falls back to the unknown converter when a converter throws", () => {
  const r = convertContent({ messageType: "image", content: '{"image_key":"k"}' }, {
    context: { mention: (id) => id },
    converters: new Map([["image", () => {
      throw new TypeError("bad shape");
    }]]),
  });
  assert.equal(r.converterError, "bad shape");
  assert.deepEqual(r.conversion, {
    content: { kind: "unknown", message_type: "image" },
    text: "[unsupported message]",
    resources: [],
  });
});
