import assert from "node:assert/strict";
import { contentTooDeep, jsonTextDepth, MAX_CONTENT_DEPTH } from "./_depth.ts";
import { MAX_RECORD_ERROR_CHARS, normaliseMessage, normaliseUnreadable } from "./normalise.ts";

const envelope = (messageType: string, content: string) => ({
  schema: "2.0",
  header: { event_id: "ev1", event_type: "im.message.receive_v1", create_time: "1735700000000" },
  event: {
    sender: { sender_id: { open_id: "ou_a" }, sender_type: "user" },
    message: {
      message_id: "om_1",
      chat_id: "oc_1",
      chat_type: "p2p",
      message_type: messageType,
      create_time: "1735700000000",
      content,
    },
  },
});

Deno.test("jsonTextDepth counts brackets outside strings, linearly, also a hundred thousand deep", () => {
  assert.equal(jsonTextDepth('{"text":"[[[{{{"}'), 1);
  assert.equal(jsonTextDepth('{"a":"\\"[","b":[[]]}'), 3);
  assert.equal(jsonTextDepth("[".repeat(100_000) + "]".repeat(100_000)), 100_000);
  assert.equal(jsonTextDepth("[".repeat(100_000), 64), 65);
  assert.equal(contentTooDeep("[".repeat(MAX_CONTENT_DEPTH)), undefined);
  assert.match(contentTooDeep("[".repeat(MAX_CONTENT_DEPTH + 1))!, /deeper than 64 levels/);
});

Deno.test("normaliseMessage records a post nested past the budget as unreadable, without parsing it", () => {
  let el: unknown = { tag: "text", text: "x" };
  for (let i = 0; i < 10_000; i++) el = { tag: "text", text: "y", c: [el] };
  const content = JSON.stringify({ title: "t", content: [[el]] });
  const out = normaliseMessage(envelope("post", content) as never, { alias: "main", nowMs: 0 })!;
  assert.equal(
    out.record.text,
    "[message could not be read: content nested deeper than 64 levels]",
  );
  assert.equal(out.record.error, "content nested deeper than 64 levels");
  assert.deepEqual(out.record.content, { kind: "unknown", message_type: "post" });
  assert.deepEqual(out.descriptors, []);
  assert.equal(out.record.id, "main:oc_1:om_1");
  // The record encodes (the deep content stays a string inside the raw envelope).
  assert.ok(JSON.stringify(out.record).length > content.length);
});

Deno.test("normaliseUnreadable keeps the envelope and cuts a long reason to the bound", () => {
  const out = normaliseUnreadable(
    envelope("text", '{"text":"hi"}') as never,
    { alias: "main", nowMs: 0 },
    "RangeError: " + "x".repeat(1000),
  )!;
  assert.equal(out.record.error!.length, MAX_RECORD_ERROR_CHARS);
  assert.ok(out.record.text.startsWith("[message could not be read: RangeError: xxx"));
  assert.equal((out.record.feishu as { event: unknown }).event !== undefined, true);
  assert.equal(out.record.from_open_id, "ou_a");
});
