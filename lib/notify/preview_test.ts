import assert from "node:assert/strict";
import type { Attachment } from "../inbound/mod.ts";
import { at, CHAT, inbound, incoming, NOW, outgoing } from "./_fixtures.ts";
import { jsonChars, MAX_STRUCTURED_CHARS } from "./fit.ts";
import { DOWNLOADED_COMMENT, FAILED_COMMENT, previewItem } from "./items.ts";
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

const dir = "/agent/feishu/main/attachments/om_media";
const downloaded: Attachment[] = [
  {
    type: "video",
    file_key: "video-key",
    cover_image_key: "cover-key",
    status: "downloaded",
    filename: "clip.mp4",
    path: `${dir}/clip.mp4`,
    size: 3,
  },
  {
    type: "image",
    file_key: "cover-key",
    role: "cover",
    parent_file_key: "video-key",
    status: "downloaded",
    filename: "image-2.jpg",
    path: `${dir}/image-2.jpg`,
    size: 3,
  },
  {
    type: "sticker",
    file_key: "sticker-key",
    status: "downloaded",
    filename: "sticker-3.png",
    path: `${dir}/sticker-3.png`,
    size: 3,
  },
  {
    type: "image",
    file_key: "image-key",
    status: "downloaded",
    filename: "image-4.jpg",
    path: `${dir}/image-4.jpg`,
    size: 4,
  },
  {
    type: "file",
    file_key: "file-key",
    file_name: "notes.txt",
    status: "downloaded",
    filename: "notes.txt",
    path: `${dir}/notes.txt`,
    size: 4,
  },
];
const mediaRecord = inbound("om_media", {
  date: at(5),
  message_type: "post",
  text: "resource bundle",
  attachments: downloaded,
  media: {
    type: "video",
    filename: "clip.mp4",
    path: `${dir}/clip.mp4`,
    size: 3,
    file_key: "video-key",
  },
});

Deno.test("buildPreview() projects the current message's attachments without file keys", () => {
  const p = buildPreview([incoming(mediaRecord)], opts(mediaRecord.id));
  const atts = p.latest_incoming?.attachments ?? [];
  assert.deepEqual(atts.map((a) => a.type), ["video", "image", "sticker", "image", "file"]);
  assert.deepEqual(
    atts.map((a) => a.path),
    downloaded.map((a) => a.status === "downloaded" && a.path),
  );
  assert.equal(atts[1]?.role, "cover");
  const json = JSON.stringify(p.latest_incoming);
  assert.ok(!json.includes("file_key"));
  assert.ok(!json.includes("parent_file_key"));
  assert.ok(!json.includes("video-key"));
  assert.ok(p.latest_incoming?.comment?.includes("inspect the listed paths"));
  assert.deepEqual(p.latest_incoming?.media, { type: "video", filename: "clip.mp4", size: 3 });
});

Deno.test("buildPreview() gives a media message no attachments when another message is current", () => {
  const later = inbound("om_later", { date: at(6) });
  const p = buildPreview([incoming(mediaRecord), incoming(later)], opts(later.id));
  const media = p.recent_messages.find((i) => i.id === mediaRecord.id);
  assert.equal(media?.attachments, undefined);
  assert.equal(media?.comment, undefined);
  assert.deepEqual(media?.media, { type: "video", filename: "clip.mp4", size: 3 });
  assert.equal(p.latest_incoming?.id, later.id);
});

Deno.test("buildPreview() projects a failed download exactly and points to feishu.read", () => {
  const failed = inbound("om_fail", {
    attachments: [{
      type: "file",
      file_key: "file-key",
      file_name: "report.txt",
      status: "failed",
      error: "download unavailable",
    }],
    media: { type: "file", file_key: "file-key", download_error: "download unavailable" },
  });
  const p = buildPreview([incoming(failed)], opts(failed.id));
  assert.deepEqual(p.latest_incoming?.attachments, [
    { type: "file", status: "failed", filename: "report.txt", error: "download unavailable" },
  ]);
  assert.equal(p.latest_incoming?.comment, FAILED_COMMENT);
  assert.ok(FAILED_COMMENT.includes("feishu.read"));
});

Deno.test("buildPreview() joins both comments when some downloads failed and some did not", () => {
  const mixed = inbound("om_mixed", {
    attachments: [downloaded[0] as Attachment, {
      type: "file",
      file_key: "k",
      status: "failed",
      error: "x",
    }],
  });
  const p = buildPreview([incoming(mixed)], opts(mixed.id));
  assert.equal(p.latest_incoming?.comment, `${DOWNLOADED_COMMENT} ${FAILED_COMMENT}`);
});

Deno.test("buildPreview() projects at most eight attachments and flags the rest", () => {
  const many = inbound("om_many", {
    attachments: Array.from({ length: 10 }, (_, i) => ({
      type: "image" as const,
      file_key: `k${i}`,
      status: "downloaded" as const,
      filename: `i${i}.jpg`,
      path: `${dir}/i${i}.jpg`,
      size: 1,
    })),
  });
  const p = buildPreview([incoming(many)], opts(many.id));
  assert.equal(p.latest_incoming?.attachments?.length, 8);
  assert.equal(p.latest_incoming?.attachments_truncated, true);
});

Deno.test("buildPreview() stays under 20,000 characters per field with eight long paths", () => {
  const longDir = `/work/${'deep"\\'.repeat(170)}`;
  const heavy = inbound("om_heavy", {
    date: at(10),
    text: '"quoted" '.repeat(100),
    mentions: Array.from(
      { length: 20 },
      (_, i) => ({
        key: `@_user_${i}`,
        open_id: `ou_${"m".repeat(60)}`,
        name: "N".repeat(60),
        is_bot: false,
      }),
    ),
    attachments: Array.from({ length: 8 }, (_, i) => ({
      type: "file" as const,
      file_key: `k${i}`,
      status: "downloaded" as const,
      filename: `f${i}.bin`,
      path: `${longDir}/f${i}.bin`,
      size: 1,
    })),
  });
  const others = Array.from(
    { length: 9 },
    (_, i) =>
      incoming(
        inbound(`om_o${i}`, { date: at(i), text: '"x" '.repeat(125), mentions: heavy.mentions }),
      ),
  );
  const entries = [...others, incoming(heavy)];
  const unshrunk = entries.map((e) =>
    previewItem(e, { ...opts(heavy.id), isCurrent: e.record.id === heavy.id })
  );
  assert.ok(jsonChars(unshrunk) > MAX_STRUCTURED_CHARS, "the fixture must need shrinking");
  assert.ok(jsonChars(unshrunk.at(-1)) > MAX_STRUCTURED_CHARS / 2);
  const p = buildPreview(entries, opts(heavy.id));
  assert.ok(jsonChars(p.recent_messages) <= MAX_STRUCTURED_CHARS);
  assert.ok(jsonChars(p.latest_incoming) <= MAX_STRUCTURED_CHARS);
  assert.equal(p.latest_incoming?.attachments?.length, 8);
  const current = p.recent_messages.find((i) => i.is_current);
  assert.equal(current?.attachments?.length, 8);
  assert.ok(current?.attachments?.every((a) => a.path_truncated === true));
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
