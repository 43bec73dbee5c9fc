import assert from "node:assert/strict";
import {
  MAX_NAME_BYTES,
  MAX_NAME_CHARS,
  safeFileName,
  type SafeNameOptions,
  uniqueName,
} from "./safe_name.ts";

const cases: [string, SafeNameOptions, string][] = [
  [
    "keeps only the last path segment",
    { type: "video", index: 1, providerName: "../../clip.mp4" },
    "clip.mp4",
  ],
  ["treats backslashes as separators", {
    type: "file",
    index: 1,
    fileName: "C:\\Users\\a\\report.txt",
  }, "report.txt"],
  ["prefers the provider name over the content name", {
    type: "file",
    index: 1,
    providerName: "p.txt",
    fileName: "c.txt",
  }, "p.txt"],
  ["uses the content name without a provider name", {
    type: "file",
    index: 1,
    providerName: null,
    fileName: "c.txt",
  }, "c.txt"],
  ["names an empty audio audio-1.ogg", { type: "audio", index: 1, fileName: "" }, "audio-1.ogg"],
  ["names a nameless image by its index", { type: "image", index: 3 }, "image-3.jpg"],
  ["names a nameless sticker .png", { type: "sticker", index: 2 }, "sticker-2.png"],
  ["names a nameless video .mp4", { type: "video", index: 1 }, "video-1.mp4"],
  ["names a nameless file .bin", { type: "file", index: 4 }, "file-4.bin"],
  ["replaces . and .. with the fallback", { type: "file", index: 1, fileName: ".." }, "file-1.bin"],
  ["replaces runs of unsafe characters with one _", {
    type: "file",
    index: 1,
    fileName: 'a<>:"|?*b.txt',
  }, "a_b.txt"],
  [
    "replaces control characters",
    { type: "file", index: 1, fileName: "a\u0000\u0007b\nc.txt" },
    "a_b_c.txt",
  ],
  ["strips trailing spaces and dots", { type: "file", index: 1, fileName: "  notes. . " }, "notes"],
  ["adds the default suffix to a media name without one", {
    type: "image",
    index: 1,
    fileName: "photo",
  }, "photo.jpg"],
  [
    "does not add a suffix to a named file",
    { type: "file", index: 1, fileName: "Makefile" },
    "Makefile",
  ],
  [
    "keeps an existing media suffix",
    { type: "audio", index: 1, fileName: "voice.opus" },
    "voice.opus",
  ],
];
for (const [name, options, want] of cases) {
  Deno.test(`safeFileName() ${name}`, () => assert.equal(safeFileName(options), want));
}

Deno.test("safeFileName() caps a long name at 180 code points and keeps its suffix", () => {
  const got = safeFileName({ type: "file", index: 1, fileName: `${"a".repeat(300)}.tar.gz` });
  assert.equal(Array.from(got).length, MAX_NAME_CHARS);
  assert.ok(got.endsWith("a.gz"));
});

Deno.test("safeFileName() does not keep a suffix longer than 16 characters", () => {
  const got = safeFileName({
    type: "file",
    index: 1,
    fileName: `${"b".repeat(200)}.${"x".repeat(20)}`,
  });
  assert.equal(Array.from(got).length, MAX_NAME_CHARS);
  assert.equal(got, "b".repeat(MAX_NAME_CHARS));
});

Deno.test("safeFileName() also keeps a CJK name within the file-system byte limit", () => {
  const got = safeFileName({ type: "file", index: 1, fileName: `${"报".repeat(170)}.pdf` });
  assert.ok(new TextEncoder().encode(got).length <= MAX_NAME_BYTES);
  assert.ok(got.endsWith("报.pdf"));
});

Deno.test("uniqueName() adds -2, -3 before the suffix on collisions", () => {
  const taken = new Set<string>();
  assert.deepEqual(
    ["clip.mp4", "clip.mp4", "clip.mp4", "notes", "notes"].map((n) => uniqueName(n, taken)),
    ["clip.mp4", "clip-2.mp4", "clip-3.mp4", "notes", "notes-2"],
  );
});

Deno.test("uniqueName() keeps the counter when the name is at the length cap", () => {
  const taken = new Set<string>();
  const long = safeFileName({ type: "file", index: 1, fileName: `${"c".repeat(400)}.txt` });
  uniqueName(long, taken);
  const second = uniqueName(long, taken);
  assert.notEqual(second, long);
  assert.ok(second.endsWith("-2.txt"));
  assert.equal(Array.from(second).length, MAX_NAME_CHARS);
});
