import assert from "node:assert/strict";
import { buildDescriptors, type ResourceRef } from "./descriptors.ts";

Deno.test("buildDescriptors() orders video, its cover, sticker, image, file as the media checklist says", () => {
  const resources: ResourceRef[] = [
    {
      type: "media",
      file_key: "video-key",
      file_name: "../../clip.mp4",
      cover_image_key: "cover-key",
    },
    { type: "sticker", file_key: "sticker-key" },
    { type: "image", file_key: "image-key" },
    { type: "file", file_key: "file-key", file_name: "notes.txt" },
  ];
  const got = buildDescriptors(resources, { messageType: "post" });
  assert.deepEqual(got, [
    {
      type: "video",
      file_key: "video-key",
      file_name: "../../clip.mp4",
      cover_image_key: "cover-key",
    },
    { type: "image", file_key: "cover-key", role: "cover", parent_file_key: "video-key" },
    { type: "sticker", file_key: "sticker-key" },
    { type: "image", file_key: "image-key" },
    { type: "file", file_key: "file-key", file_name: "notes.txt" },
  ]);
});

Deno.test("buildDescriptors() drops resources of other types and without a key", () => {
  const got = buildDescriptors(
    [
      { type: "image", file_key: "" },
      { type: "folder" as never, file_key: "fld" },
      { type: "audio", file_key: "a1", duration_ms: 1500 },
    ],
    { messageType: "post" },
  );
  assert.deepEqual(got, [{ type: "audio", file_key: "a1", duration_ms: 1500 }]);
});

Deno.test("buildDescriptors() de-duplicates by type and key, keeping the first", () => {
  const got = buildDescriptors(
    [
      { type: "image", file_key: "k" },
      { type: "file", file_key: "k" },
      { type: "image", file_key: "k" },
    ],
    { messageType: "post" },
  );
  assert.deepEqual(got.map((d) => d.type), ["image", "file"]);
});

Deno.test("buildDescriptors() does not insert a cover that is already listed", () => {
  const got = buildDescriptors(
    [
      { type: "video", file_key: "v", cover_image_key: "img" },
      { type: "image", file_key: "img" },
    ],
    { messageType: "post" },
  );
  assert.deepEqual(got.map((d) => [d.type, d.file_key, d.role]), [
    ["video", "v", undefined],
    ["image", "img", undefined],
  ]);
});

const fallbacks: [string, string, unknown, unknown[]][] = [
  ["reads image_key of an image", "image", { image_key: "img" }, [{
    type: "image",
    file_key: "img",
  }]],
  ["reads file_key of an image without image_key", "image", { file_key: "f" }, [{
    type: "image",
    file_key: "f",
  }]],
  ["reads duration of audio", "audio", { file_key: "a", duration: 2000 }, [{
    type: "audio",
    file_key: "a",
    duration_ms: 2000,
  }]],
  ["reads file_name of a file", "file", { file_key: "f", file_name: "x.pdf" }, [{
    type: "file",
    file_key: "f",
    file_name: "x.pdf",
  }]],
  ["renames media to video and adds its cover", "media", { file_key: "v", image_key: "c" }, [
    { type: "video", file_key: "v", cover_image_key: "c" },
    { type: "image", file_key: "c", role: "cover", parent_file_key: "v" },
  ]],
  ["reads a sticker", "sticker", { file_key: "s" }, [{ type: "sticker", file_key: "s" }]],
  ["ignores other message types", "text", { file_key: "f" }, []],
  ["ignores content without a key", "file", {}, []],
];
for (const [name, messageType, content, want] of fallbacks) {
  Deno.test(`buildDescriptors() falls back to the content JSON: ${name}`, () => {
    assert.deepEqual(buildDescriptors([], { messageType, content }), want);
  });
}
