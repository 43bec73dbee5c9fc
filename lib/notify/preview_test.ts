import assert from "node:assert/strict";
import { at, CHAT, inbound, incoming, NOW, outgoing } from "./testdata/records.ts";
import { jsonChars } from "./fit.ts";
import { buildPreview, MAX_BODY_CHARS } from "./preview.ts";

const opts = (currentId: string | null) => ({ alias: "main", chatId: CHAT, currentId, nowMs: NOW });

Deno.test("buildPreview() orders inbox and sent records by date and marks only the current one", () => {
  const p = buildPreview(
    [
      incoming(inbound("om_3", { date: at(3) })),
      incoming(inbound("om_1", { date: at(1) })),
      outgoing("om_2", { date: at(2), sent_at: at(2) }),
    ],
    opts("main:oc_chat:om_3"),
  );
  const items = p.recent_messages;
  assert.deepEqual(items.map((i) => i.id), [
    "main:oc_chat:om_1",
    "main:oc_chat:om_2",
    "main:oc_chat:om_3",
  ]);
  assert.deepEqual(items.map((i) => i.direction), ["incoming", "outgoing", "incoming"]);
  assert.equal(items[1]?.sender, "me");
  assert.deepEqual(items.map((i) => i.is_current), [false, false, true]);
  assert.deepEqual(items.map((i) => i.text_truncated), [false, false, false]);
  assert.equal(p.latest_incoming?.id, "main:oc_chat:om_3");
});

Deno.test("buildPreview() writes the current compound id and the channel name into the body", () => {
  const p = buildPreview([incoming(inbound("om_1", { date: at(14) }))], opts("main:oc_chat:om_1"));
  assert.ok(p.body.includes("#main:oc_chat:om_1"));
  assert.ok(p.body.includes("Feishu"));
  assert.ok(p.body.includes("**How to read this Feishu preview**"));
  assert.ok(p.body.includes("**Staying present on Feishu**"));
  assert.ok(p.body.includes("**Conversation — last 1 messages (chat oc_chat)**"));
  assert.ok(p.body.endsWith("[1 min ago] #main:oc_chat:om_1 Alice: text of om_1"));
});

Deno.test("buildPreview() caps a 600-character text at 500 ending in …", () => {
  const p = buildPreview(
    [incoming(inbound("om_1", { text: "x".repeat(600) }))],
    opts("main:oc_chat:om_1"),
  );
  const item = p.recent_messages[0];
  assert.equal(Array.from(item?.text ?? "").length, 500);
  assert.ok(item?.text.endsWith("…"));
  assert.equal(item?.text_truncated, true);
  assert.ok(
    jsonChars({ recent_messages: p.recent_messages, latest_incoming: p.latest_incoming }) < 20_000,
  );
});

Deno.test("buildPreview() keeps the last ten of twelve messages", () => {
  const entries = Array.from({ length: 12 }, (_, i) => {
    const n = String(i + 1).padStart(2, "0");
    return incoming(inbound(`om_${n}`, { date: at(i) }));
  });
  const p = buildPreview(entries, opts("main:oc_chat:om_12"));
  assert.equal(p.recent_messages.length, 10);
  assert.equal(p.recent_messages[0]?.id, "main:oc_chat:om_03");
  assert.equal(p.recent_messages[9]?.id, "main:oc_chat:om_12");
  assert.ok(p.body.includes("**Conversation — last 10 messages (chat oc_chat)**"));
});

Deno.test("buildPreview() carries parent_id and reply_to and quotes the parent in the body", () => {
  const p = buildPreview(
    [
      incoming(inbound("om_1", { date: at(1), text: "q".repeat(60) })),
      incoming(inbound("om_2", { date: at(2), parent_id: "om_1", reply_to: "main:oc_chat:om_1" })),
    ],
    opts("main:oc_chat:om_2"),
  );
  assert.equal(p.latest_incoming?.parent_id, "om_1");
  assert.equal(p.latest_incoming?.reply_to, "main:oc_chat:om_1");
  assert.ok(p.body.includes(`\n  ↳ [14 min ago] #main:oc_chat:om_1: ${"q".repeat(50)}…`));
});

Deno.test("buildPreview() gives latest_incoming type, thread and mentions but no content or raw envelope", () => {
  const mentions = [
    { key: "@_user_1", open_id: "ou_bot", name: "Mac PA", is_bot: true },
    { key: "@_user_2", open_id: "ou_dan", name: "Dan", is_bot: false },
  ];
  const p = buildPreview(
    [incoming(inbound("om_t", { thread_id: "omt_thread", chat_type: "topic", mentions }))],
    opts("main:oc_chat:om_t"),
  );
  const li = p.latest_incoming as unknown as Record<string, unknown>;
  assert.equal(li.type, "text");
  assert.equal(li.thread_id, "omt_thread");
  assert.deepEqual(li.mentions, mentions);
  assert.equal("feishu" in li, false);
  assert.equal("content" in li, false);
});

Deno.test("buildPreview() keeps the first 20 of 21 mentions and flags the cut", () => {
  const mentions = Array.from({ length: 21 }, (_, i) => ({ key: `@_user_${i}`, is_bot: false }));
  const p = buildPreview(
    [incoming(inbound("om_p", { message_type: "post", thread_id: "omt_1", mentions }))],
    opts("main:oc_chat:om_p"),
  );
  const item = p.recent_messages[0];
  assert.equal(item?.mentions?.length, 20);
  assert.equal(item?.mentions_truncated, true);
  assert.equal(item?.type, "post");
  assert.equal(item?.thread_id, "omt_1");
});

Deno.test("buildPreview() keeps the tail of a long conversation within 10,000 characters", () => {
  const entries = Array.from(
    { length: 10 },
    (_, i) => incoming(inbound(`om_${i}`, { date: at(i), text: `${i}`.repeat(2000) })),
  );
  const p = buildPreview(entries, opts("main:oc_chat:om_9"));
  assert.ok(Array.from(p.body).length <= MAX_BODY_CHARS);
  assert.ok(p.body.includes("**Conversation — last 10 messages (chat oc_chat)**\n…\n"));
  assert.ok(p.body.endsWith("9".repeat(2000)));
  assert.ok(!p.body.includes("#main:oc_chat:om_0 "));
});

Deno.test("buildPreview() hard-cuts the body when even the newest line does not fit", () => {
  const huge = inbound("om_huge", { text: "h".repeat(20_000) });
  const p = buildPreview([incoming(huge)], opts(huge.id));
  assert.equal(Array.from(p.body).length, MAX_BODY_CHARS - 2);
  assert.ok(p.body.endsWith("h…"));
  assert.ok(p.body.includes("#main:oc_chat:om_huge"));
});

Deno.test("buildPreview() skips automatic Task Card records", () => {
  const p = buildPreview(
    [incoming(inbound("om_1")), outgoing("om_card", { task_card: true })],
    opts("main:oc_chat:om_1"),
  );
  assert.deepEqual(p.recent_messages.map((i) => i.id), ["main:oc_chat:om_1"]);
});

Deno.test("buildPreview() names senders by record name, contact, open_id, then unknown", () => {
  const p = buildPreview(
    [
      incoming(inbound("om_1", { date: at(1), from_name: null, from_open_id: "ou_known" })),
      incoming(inbound("om_2", { date: at(2), from_name: null, from_open_id: "ou_anon" })),
      incoming(inbound("om_3", { date: at(3), from_name: null, from_open_id: "" })),
    ],
    { ...opts(null), contactName: (id) => (id === "ou_known" ? "Kim" : null) },
  );
  assert.deepEqual(p.recent_messages.map((i) => i.sender), ["Kim", "ou_anon", "unknown"]);
  assert.equal(p.latest_incoming?.id, "main:oc_chat:om_3");
});

Deno.test("buildPreview() shows [<media type>] for a record without text", () => {
  const p = buildPreview(
    [incoming(inbound("om_1", { text: "", media: { type: "image", file_key: "k" } }))],
    opts("main:oc_chat:om_1"),
  );
  assert.equal(p.recent_messages[0]?.text, "[image]");
  assert.ok(p.body.endsWith("Alice: [image]"));
});

Deno.test("buildPreview() has no latest_incoming when the window holds only sent records", () => {
  const p = buildPreview([outgoing("om_s")], opts(null));
  assert.equal(p.latest_incoming, undefined);
});
