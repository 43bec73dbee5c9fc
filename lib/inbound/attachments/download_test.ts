import assert from "node:assert/strict";
import { join } from "node:path";
import { buildDescriptors } from "./descriptors.ts";
import {
  downloadAttachments,
  type DownloadResource,
  type DownloadResourceTo,
  type ResourceApiType,
} from "./download.ts";
import { writeStreamCapped } from "../../feishu/_stream_file.ts";

/** A fake Feishu resource endpoint: records calls, serves bytes per key. */
function fakeDownload(
  files: Record<string, { bytes?: Uint8Array; fileName?: string; error?: Error }>,
) {
  const calls: [string, string, ResourceApiType][] = [];
  const download: DownloadResource = (messageId, fileKey, apiType) => {
    calls.push([messageId, fileKey, apiType]);
    const f = files[fileKey];
    if (!f || f.error) return Promise.reject(f?.error ?? new Error(`no such key ${fileKey}`));
    return Promise.resolve({ bytes: f.bytes ?? new Uint8Array(), fileName: f.fileName });
  };
  return { download, calls };
}

const bytes = (s: string) => new TextEncoder().encode(s);

async function withTempDir(fn: (root: string) => Promise<void>) {
  const root = await Deno.makeTempDir({ prefix: "inbound-attachments-" });
  try {
    await fn(root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("downloadAttachments() fetches a post's resources in order and writes them inside the folder", async () => {
  await withTempDir(async (root) => {
    const dir = join(root, "attachments", "om_media");
    const descriptors = buildDescriptors([
      { type: "video", file_key: "video-key", cover_image_key: "cover-key" },
      { type: "sticker", file_key: "sticker-key" },
      { type: "image", file_key: "image-key" },
      { type: "file", file_key: "file-key", file_name: "notes.txt" },
    ], { messageType: "post" });
    const { download, calls } = fakeDownload({
      "video-key": { bytes: bytes("mp4"), fileName: "../../clip.mp4" },
      "cover-key": { bytes: bytes("jpg") },
      "sticker-key": { bytes: bytes("png") },
      "image-key": { bytes: bytes("jpg2") },
      "file-key": { bytes: bytes("text") },
    });
    const { attachments, media } = await downloadAttachments(descriptors, {
      messageId: "om_media",
      dir,
      download,
    });
    assert.deepEqual(calls, [
      ["om_media", "video-key", "file"],
      ["om_media", "cover-key", "image"],
      ["om_media", "sticker-key", "image"],
      ["om_media", "image-key", "image"],
      ["om_media", "file-key", "file"],
    ]);
    assert.deepEqual(attachments.map((a) => [a.type, a.status, a.role]), [
      ["video", "downloaded", undefined],
      ["image", "downloaded", "cover"],
      ["sticker", "downloaded", undefined],
      ["image", "downloaded", undefined],
      ["file", "downloaded", undefined],
    ]);
    assert.equal(attachments[1]?.parent_file_key, "video-key");
    for (const a of attachments) {
      assert.ok(a.status === "downloaded");
      assert.equal(a.path, join(dir, a.filename));
      assert.ok(!a.filename.includes("/"));
      assert.equal((await Deno.stat(a.path)).size, a.size);
      assert.ok(a.size > 0);
    }
    assert.deepEqual(attachments.map((a) => a.status === "downloaded" && a.filename), [
      "clip.mp4",
      "image-2.jpg",
      "sticker-3.png",
      "image-4.jpg",
      "notes.txt",
    ]);
    assert.equal(media?.type, "video");
    assert.equal(media?.filename, "clip.mp4");
    assert.deepEqual(
      (await Array.fromAsync(Deno.readDir(dir))).filter((e) => e.name.startsWith(".")),
      [],
    );
  });
});

Deno.test("downloadAttachments() records a failed download exactly and creates no folder", async () => {
  await withTempDir(async (root) => {
    const dir = join(root, "attachments", "om_fail");
    const { download } = fakeDownload({ "file-key": { error: new Error("download unavailable") } });
    const result = await downloadAttachments(
      [{ type: "file", file_key: "file-key", file_name: "report.txt" }],
      { messageId: "om_fail", dir, download },
    );
    assert.deepEqual(result.attachments, [
      {
        type: "file",
        file_key: "file-key",
        file_name: "report.txt",
        status: "failed",
        error: "download unavailable",
      },
    ]);
    assert.deepEqual(result.media, {
      type: "file",
      file_key: "file-key",
      download_error: "download unavailable",
    });
    await assert.rejects(Deno.stat(dir), Deno.errors.NotFound);
  });
});

Deno.test("downloadAttachments() collapses and bounds a long error text", async () => {
  await withTempDir(async (root) => {
    const { download } = fakeDownload({
      k: { error: new Error(`gateway\n\n  said ${"no ".repeat(200)}`) },
    });
    const { attachments } = await downloadAttachments([{ type: "file", file_key: "k" }], {
      messageId: "om",
      dir: root,
      download,
    });
    const a = attachments[0];
    assert.ok(a?.status === "failed");
    assert.equal(Array.from(a.error).length, 200);
    assert.ok(a.error.startsWith("gateway said no no"));
  });
});

Deno.test("downloadAttachments() fails an attachment whose download returned no bytes", async () => {
  await withTempDir(async (root) => {
    const download: DownloadResource = () => Promise.resolve({ bytes: "text" as never });
    const { attachments } = await downloadAttachments([{ type: "image", file_key: "k" }], {
      messageId: "om",
      dir: root,
      download,
    });
    assert.equal(attachments[0]?.status, "failed");
  });
});

Deno.test("downloadAttachments() keeps going after a failure and names collisions -2", async () => {
  await withTempDir(async (root) => {
    const { download } = fakeDownload({
      a: { bytes: bytes("1"), fileName: "same.txt" },
      b: { error: new Error("gone") },
      c: { bytes: bytes("2"), fileName: "same.txt" },
    });
    const { attachments, media } = await downloadAttachments(
      ["a", "b", "c"].map((k) => ({ type: "file" as const, file_key: k })),
      { messageId: "om", dir: root, download },
    );
    assert.deepEqual(
      attachments.map((a) => a.status === "downloaded" ? a.filename : a.error),
      ["same.txt", "gone", "same-2.txt"],
    );
    assert.equal(await Deno.readTextFile(join(root, "same-2.txt")), "2");
    assert.equal(media?.filename, "same.txt");
  });
});

Deno.test("downloadAttachments() reuses the same names when a message is replayed", async () => {
  await withTempDir(async (root) => {
    const { download } = fakeDownload({ a: { bytes: bytes("x"), fileName: "a.txt" } });
    const options = { messageId: "om", dir: root, download };
    const first = await downloadAttachments([{ type: "file", file_key: "a" }], options);
    const again = await downloadAttachments([{ type: "file", file_key: "a" }], options);
    assert.deepEqual(again, first);
    assert.deepEqual((await Array.fromAsync(Deno.readDir(root))).map((e) => e.name), ["a.txt"]);
  });
});

Deno.test("downloadAttachments() stops before the next download when aborted", async () => {
  await withTempDir(async (root) => {
    const controller = new AbortController();
    const { download, calls } = fakeDownload({
      a: { bytes: bytes("x") },
      b: { bytes: bytes("y") },
    });
    const aborting: DownloadResource = async (...args) => {
      const got = await download(...args);
      controller.abort(new Error("shutting down"));
      return got;
    };
    await assert.rejects(
      downloadAttachments(
        [{ type: "file", file_key: "a" }, { type: "file", file_key: "b" }],
        { messageId: "om", dir: root, download: aborting, signal: controller.signal },
      ),
      /shutting down/,
    );
    assert.equal(calls.length, 1);
  });
});

Deno.test("downloadAttachments() returns no attachments and a null media for no descriptors", async () => {
  const { download, calls } = fakeDownload({});
  assert.deepEqual(
    await downloadAttachments([], { messageId: "om", dir: "/nonexistent", download }),
    { attachments: [], media: null },
  );
  assert.equal(calls.length, 0);
});

Deno.test("downloadAttachments() saves a nameless voice message as audio-1.ogg with its bytes intact", async () => {
  await withTempDir(async (root) => {
    const voice = new Uint8Array([0x4f, 0x67, 0x67, 0x53, 0, 2, 255]);
    const { download, calls } = fakeDownload({ "audio-key": { bytes: voice } });
    const descriptors = buildDescriptors([], {
      messageType: "audio",
      content: { file_key: "audio-key" },
    });
    const { attachments } = await downloadAttachments(descriptors, {
      messageId: "om_a",
      dir: root,
      download,
    });
    assert.deepEqual(calls, [["om_a", "audio-key", "file"]]);
    const a = attachments[0];
    assert.ok(a?.status === "downloaded");
    assert.equal(a.filename, "audio-1.ogg");
    assert.deepEqual(await Deno.readFile(a.path), voice);
  });
});

/** A streaming endpoint over the real capped writer: serves `size` bytes per key in 1 KiB chunks. */
function streamingDownload(sizes: Record<string, number>): DownloadResourceTo {
  return async (_messageId, fileKey, _apiType, to) => {
    const size = sizes[fileKey] ?? 0;
    async function* chunks() {
      for (let sent = 0; sent < size; sent += 1024) {
        yield new Uint8Array(Math.min(1024, size - sent)).fill(7);
      }
    }
    return { size: await writeStreamCapped(chunks(), to), fileName: `${fileKey}.bin` };
  };
}

Deno.test("downloadAttachments() streams files to disk and records a file over the cap as failed, naming it, with nothing left on disk", async () => {
  await withTempDir(async (root) => {
    const dir = join(root, "attachments", "om_big");
    const descriptors = buildDescriptors([
      { type: "file", file_key: "big" },
      { type: "file", file_key: "small" },
    ], { messageType: "post" });
    const got = await downloadAttachments(descriptors, {
      messageId: "om_big",
      dir,
      downloadTo: streamingDownload({ big: 5000, small: 4096 }),
      maxBytes: 4096,
    });
    const [big, small] = got.attachments;
    assert.equal(big!.status, "failed");
    assert.match(
      String(big!.error),
      /larger than the 4096-byte cap \(limits\.inbound_download_bytes\)/,
    );
    assert.equal(small!.status, "downloaded");
    assert.equal(small!.size, 4096);
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["small.bin"]);
    assert.deepEqual([...Deno.readDirSync(join(root, "attachments"))].map((e) => e.name), [
      "om_big",
    ]);
  });
});

Deno.test("downloadAttachments() applies the cap to a download that returns bytes too", async () => {
  await withTempDir(async (root) => {
    const dir = join(root, "attachments", "om_b");
    const { download } = fakeDownload({ k: { bytes: new Uint8Array(11) } });
    const got = await downloadAttachments(
      buildDescriptors([{ type: "file", file_key: "k" }], {
        messageType: "file",
      }),
      { messageId: "om_b", dir, download, maxBytes: 10 },
    );
    assert.equal(got.attachments[0]!.status, "failed");
    assert.match(String(got.media?.download_error), /10-byte cap/);
  });
});
