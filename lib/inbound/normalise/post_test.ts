import assert from "node:assert/strict";
import { BOT_OPEN_ID, mention, receiveEnvelope } from "../testdata/envelopes.ts";
import { normaliseMessage } from "./normalise.ts";

const ctx = { alias: "main", botOpenId: BOT_OPEN_ID, nowMs: 1785748503000 };

function post(content: unknown, mentions?: unknown[]) {
  const out = normaliseMessage(
    receiveEnvelope({ messageType: "post", content, mentions, chatType: "group" }),
    ctx,
  );
  assert.ok(out);
  return out;
}

Deno.test("normaliseMessage() renders a post's title, styles, links, emoji, code and rule", () => {
  const out = post({
    title: "Release",
    content: [
      [
        { tag: "text", text: "ship ", style: [] },
        { tag: "text", text: "now", style: ["bold", "italic"] },
        { tag: "text", text: " via " },
        { tag: "a", text: "the page", href: "https://example.com/r" },
        { tag: "emotion", emoji_type: "SMILE" },
      ],
      [{ tag: "code_block", language: "GO", text: "fmt.Println(1)" }],
      [{ tag: "hr" }],
      [{ tag: "text", text: "done" }],
    ],
  });
  assert.equal(
    out.record.text,
    "**Release**\n\nship ***now*** via [the page](https://example.com/r):SMILE:\n\n```go\nfmt.Println(1)\n```\n\n\n---\n\ndone",
  );
  assert.deepEqual(
    out.record.content.kind === "post" && out.record.content.text,
    "Release\nship now via the page:SMILE:\nfmt.Println(1)\n\ndone",
  );
  assert.equal(out.record.content.kind === "post" && out.record.content.title, "Release");
});

Deno.test("normaliseMessage() keeps a post's raw AST as content.post", () => {
  const raw = { title: "", content: [[{ tag: "text", text: "x" }]] };
  const out = post(raw);
  assert.deepEqual(out.record.content, { kind: "post", title: "", text: "x", post: raw });
});

Deno.test("normaliseMessage() lists a post's images, video with cover and zone files in order", () => {
  const out = post({
    title: "",
    content: [
      [{ tag: "media", file_key: "file_video", image_key: "img_cover" }],
      [{ tag: "img", image_key: "img_inline" }],
      [{ tag: "md", text: "see ![chart](img_md) and ![web](https://x/y.png)" }],
    ],
    files: [
      { file_key: "file_doc", file_name: "spec.pdf" },
      { file_key: "fld_1", file_name: "Designs", is_folder: true },
    ],
  });
  assert.deepEqual(out.descriptors.map((d) => [d.type, d.file_key, d.role]), [
    ["video", "file_video", undefined],
    ["image", "img_cover", "cover"],
    ["image", "img_inline", undefined],
    ["image", "img_md", undefined],
    ["file", "file_doc", undefined],
  ]);
  assert.match(out.record.text, /<file key="file_doc" name="spec.pdf"\/>/);
  assert.match(out.record.text, /<folder key="fld_1" name="Designs"\/>/);
});

Deno.test("normaliseMessage() drops the bot's inline <at> from a post's text but keeps it in mentions", () => {
  const out = post(
    {
      title: "",
      content: [[
        { tag: "at", user_id: "@_user_1", user_name: "Mac PA" },
        { tag: "text", text: " please ask " },
        { tag: "at", user_id: "ou_carol", user_name: "Carol" },
      ]],
    },
    [mention("@_user_1", BOT_OPEN_ID, "Mac PA")],
  );
  assert.equal(out.record.text, "please ask @Carol");
  assert.equal(
    out.record.content.kind === "post" && out.record.content.text,
    "@Mac PA please ask @Carol",
  );
  assert.deepEqual(out.record.mentions.map((m) => [m.key, m.open_id, m.name, m.is_bot]), [
    ["@_user_1", BOT_OPEN_ID, "Mac PA", true],
  ]);
});

Deno.test("normaliseMessage() resolves inline <at> tags and md <at> tags by open_id to one mention", () => {
  const out = post({
    title: "",
    content: [[
      { tag: "at", user_id: "ou_carol", user_name: "Carol" },
      { tag: "md", text: ' and <at user_id="ou_carol">Carol</at> again' },
    ]],
  }, [mention("@_user_1", "ou_carol", "Carol")]);
  assert.equal(out.record.text, "@Carol and @Carol again");
  assert.equal(out.record.mentions.length, 1);
});

Deno.test("normaliseMessage() leaves <at> tags inside a fenced md block alone", () => {
  const out = post({
    title: "",
    content: [[{ tag: "md", text: '```\n<at user_id="ou_x">X</at>\n```' }]],
  });
  assert.equal(out.record.text, '```\n<at user_id="ou_x">X</at>\n```');
  assert.equal(out.record.mentions.length, 0);
});

Deno.test("normaliseMessage() unwraps a locale-keyed post", () => {
  const out = post({ en_us: { title: "Hi", content: [[{ tag: "text", text: "there" }]] } });
  assert.equal(out.record.text, "**Hi**\n\nthere");
});

Deno.test("normaliseMessage() unwraps a post wrapped in post and locale layers, images included", () => {
  const raw = {
    post: {
      zh_cn: {
        title: "T",
        content: [
          [{ tag: "text", text: "hi" }],
          [{ tag: "img", image_key: "img_v3_wrapped" }],
        ],
      },
    },
  };
  const out = post(raw);
  assert.equal(out.record.text, "**T**\n\nhi\n![image](img_v3_wrapped)");
  assert.deepEqual(out.record.content, { kind: "post", title: "T", text: "T\nhi", post: raw });
  assert.deepEqual(out.descriptors.map((d) => [d.type, d.file_key]), [
    ["image", "img_v3_wrapped"],
  ]);
});

Deno.test("normaliseMessage() prefers zh_cn among a post's locales", () => {
  const body = (title: string) => ({ title, content: [[{ tag: "text", text: title }]] });
  const out = post({ en_us: body("en"), zh_cn: body("zh") });
  assert.equal(out.record.text, "**zh**\n\nzh");
});

Deno.test("normaliseMessage() unwraps locale and post layers nested several levels deep", () => {
  const out = post({
    post: {
      post: {
        en_us: { content: { zh_cn: { title: "Deep", content: [[{ tag: "text", text: "x" }]] } } },
      },
    },
  });
  assert.equal(out.record.text, "**Deep**\n\nx");
});

Deno.test("normaliseMessage() lists the zone files of a locale-wrapped post", () => {
  const out = post({
    zh_cn: {
      title: "",
      content: [[{ tag: "text", text: "see" }]],
      files: [{ file_key: "file_w", file_name: "a.pdf" }],
    },
  });
  assert.equal(out.record.text, 'see\n<file key="file_w" name="a.pdf"/>');
  assert.deepEqual(out.descriptors.map((d) => [d.type, d.file_key]), [["file", "file_w"]]);
});

Deno.test("normaliseMessage() unwraps up to 8 layers of a post and no more", () => {
  const wrapped = (layers: number) => {
    let raw: unknown = { title: "Deep", content: [[{ tag: "text", text: "x" }]] };
    for (let i = 0; i < layers; i++) raw = { post: raw };
    return raw;
  };
  assert.equal(post(wrapped(8)).record.text, "**Deep**\n\nx");
  assert.equal(post(wrapped(9)).record.text, "[rich text message]");
});

Deno.test("normaliseMessage() lists the zone files of a post that has nothing else", () => {
  const out = post({ files: [{ file_key: "file_only", file_name: "b.zip" }] });
  assert.equal(out.record.text, '<file key="file_only" name="b.zip"/>');
  assert.deepEqual(out.descriptors.map((d) => [d.type, d.file_key]), [["file", "file_only"]]);
});
