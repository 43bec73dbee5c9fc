import assert from "node:assert/strict";
import { at, CHAT, inbound, incoming, NOW } from "./testdata/records.ts";
import { jsonChars, MAX_STRUCTURED_CHARS } from "./fit.ts";
import { DOWNLOADED_COMMENT, FAILED_COMMENT, previewItem } from "./items.ts";
import { buildPreview } from "./preview.ts";
import type { Attachment } from "../store/mod.ts";

const opts = (currentId: string | null) => ({ alias: "main", chatId: CHAT, currentId, nowMs: NOW });

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
