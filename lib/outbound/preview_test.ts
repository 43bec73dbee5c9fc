import { deepEqual, equal } from "node:assert/strict";
import { cardPreview, mediaPreview, mediaSummary, postPreview } from "./preview.ts";

const posts: { name: string; post: Record<string, unknown>; want: string }[] = [
  {
    name: "reads the first object-valued locale",
    post: { note: "x", en_us: { title: "Hello", content: [[{ tag: "text", text: "one" }]] } },
    want: "Hello\none",
  },
  {
    name: "treats a post with a top-level content key as one document",
    post: { title: "", content: [[{ tag: "text", text: "a" }, { tag: "at", user_name: "x" }]] },
    want: "a",
  },
  {
    name: "falls back to content_v2 rows",
    post: { zh_cn: { content_v2: [[{ tag: "md", text: "**m**" }]] } },
    want: "**m**",
  },
  {
    name: "uses an element's content when it has no text and skips empty lines",
    post: {
      zh_cn: {
        content: [[{ tag: "x", content: "c" }], [], [{ tag: "img", image_key: "k" }], "bad"],
      },
    },
    want: "c",
  },
  { name: "is empty for a post without a document", post: { zh_cn: "nope" }, want: "" },
];

for (const p of posts) {
  Deno.test(`postPreview() ${p.name}`, () => equal(postPreview(p.post), p.want));
}

const cards: { name: string; card: Record<string, unknown>; want: string }[] = [
  {
    name: "never visits a button's value",
    card: {
      schema: "2.0",
      header: { title: { tag: "plain_text", content: "Approve?" } },
      body: {
        elements: [{
          tag: "button",
          text: { tag: "plain_text", content: "Approve" },
          value: { text: "secret-token", content: "secret" },
          behaviors: [{ type: "callback", value: { text: "secret" } }],
        }],
      },
    },
    want: "Approve?\nApprove",
  },
  {
    name: "walks columns and items and skips a repeat of the previous line",
    card: {
      schema: "2.0",
      body: {
        elements: [
          {
            tag: "column_set",
            columns: [{ elements: [{ tag: "markdown", content: "left" }] }, {
              elements: [{ tag: "markdown", content: "left" }, {
                tag: "markdown",
                content: "right",
              }],
            }],
          },
          { tag: "list", items: [{ text: "item" }] },
        ],
      },
    },
    want: "left\nright\nitem",
  },
  {
    name: "says [interactive card] when there is no text",
    card: { schema: "2.0", config: { update_multi: true } },
    want: "[interactive card]",
  },
];

for (const c of cards) {
  Deno.test(`cardPreview() ${c.name}`, () => equal(cardPreview(c.card), c.want));
}

Deno.test("mediaPreview() prefers a caption, then a file name, then the bare type", () => {
  const path = { type: "path", path: "/x/clip.mp4" } as const;
  equal(mediaPreview({ type: "video", source: path, caption: "look" }), "look");
  equal(mediaPreview({ type: "video", source: path, caption: " " }), "[video: clip.mp4]");
  equal(
    mediaPreview({ type: "file", source: { type: "key", key: "k" }, fileName: "r.pdf" }),
    "[file: r.pdf]",
  );
  equal(mediaPreview({ type: "image", source: { type: "key", key: "k" } }), "[image]");
});

Deno.test("mediaSummary() never carries the path or the key", () => {
  deepEqual(mediaSummary({ type: "image", source: { type: "path", path: "/x/a.png" }, size: 7 }), {
    type: "image",
    filename: "a.png",
    size: 7,
  });
  deepEqual(mediaSummary({ type: "image", source: { type: "path", path: "/x/a.png" } }), {
    type: "image",
    filename: "a.png",
  });
  deepEqual(mediaSummary({ type: "audio", source: { type: "key", key: "file_k" }, size: 3 }), {
    type: "audio",
  });
});
