import assert from "node:assert/strict";
import { postBody, postPreview, renderPost } from "./post.ts";
import { contextFor } from "./types.ts";

const ctx = contextFor(
  {
    app: { app_id: "cli_1", bot_open_id: "ou_bot", bot_name: "EmuBot" },
    users: [{ open_id: "ou_alice", name: "Alice" }],
    chats: [],
  },
  [{ key: "@_user_1", id: "ou_bot", name: "EmuBot" }],
);

const line = (el: Record<string, unknown>) => renderPost({ title: "", content: [[el]] }, ctx);
const wrap = (inner: string) => `<div class="post"><div class="post-line">${inner}</div></div>`;

const cases: { name: string; el: Record<string, unknown>; want: string }[] = [
  {
    name: "text with every style, escaped, newlines kept",
    el: { tag: "text", text: "a<b>\nc", style: ["bold", "italic", "underline", "lineThrough"] },
    want: "<del><u><em><strong>a&lt;b&gt;<br>c</strong></em></u></del>",
  },
  {
    name: "a safe link",
    el: { tag: "a", text: "docs", href: "https://open.feishu.cn/" },
    want: '<a href="https://open.feishu.cn/" target="_blank" rel="noopener noreferrer">docs</a>',
  },
  {
    name: "a javascript: link as plain text",
    el: { tag: "a", text: "x", href: "javascript:alert(1)" },
    want: "x",
  },
  {
    name: "an at by open_id",
    el: { tag: "at", user_id: "ou_alice" },
    want: '<span class="mention">@Alice</span>',
  },
  {
    name: "an at placeholder a user's post carries",
    el: { tag: "at", user_id: "@_user_1", user_name: "ignored" },
    want: '<span class="mention">@EmuBot</span>',
  },
  {
    name: "an at for everyone",
    el: { tag: "at", user_id: "all" },
    want: '<span class="mention">@All</span>',
  },
  {
    name: "an image from its key",
    el: { tag: "img", image_key: "img_1" },
    want: '<img class="post-img" src="/__emu/api/resource/img_1" alt="image">',
  },
  {
    name: "a media element with its cover",
    el: { tag: "media", file_key: "file_1", image_key: "img_2" },
    want: '<div class="tile tile-video"><img src="/__emu/api/resource/img_2" alt="video cover">' +
      '<span class="play">▶</span></div>',
  },
  {
    name: "a known emotion",
    el: { tag: "emotion", emoji_type: "SMILE" },
    want: '<span class="emoji" title="SMILE">😄</span>',
  },
  {
    name: "an unknown emotion by name",
    el: { tag: "emotion", emoji_type: "<X>" },
    want: '<span class="emoji" title="&lt;X&gt;">[&lt;X&gt;]</span>',
  },
  {
    name: "a code block with its language",
    el: { tag: "code_block", language: "GO", text: "a := <-ch\n" },
    want: '<div class="code-block"><div class="code-lang">GO</div><pre><code>a := &lt;-ch\n' +
      "</code></pre></div>",
  },
  { name: "a rule", el: { tag: "hr" }, want: "<hr>" },
  {
    name: "an md element as markdown",
    el: { tag: "md", text: "# T\n- a\n  - b\n\n<script>x</script>" },
    want: '<div class="md"><h1>T</h1><ul><li>a<ul><li>b</li></ul></li></ul>' +
      "<p>&lt;script&gt;x&lt;/script&gt;</p></div>",
  },
  {
    name: "an unknown tag as a labelled placeholder",
    el: { tag: "<blink>" },
    want: '<span class="unknown">[&lt;blink&gt;]</span>',
  },
];

for (const c of cases) {
  Deno.test(`renderPost() renders ${c.name}`, () => assert.equal(line(c.el), wrap(c.want)));
}

Deno.test("renderPost() shows the title and accepts the locale-wrapped send shape", () => {
  const sent = { zh_cn: { title: "Report", content: [[{ tag: "text", text: "hi" }]] } };
  assert.equal(
    renderPost(sent, ctx),
    '<div class="post"><div class="post-title">Report</div><div class="post-line">hi</div></div>',
  );
  assert.deepEqual(postBody({ post: sent }).title, "Report");
  assert.deepEqual(postBody("x"), { title: "", lines: [] });
});

Deno.test("postPreview() flattens a post into one line with names and labels", () => {
  const p = postPreview({
    title: "T",
    content: [
      [{ tag: "at", user_id: "@_user_1" }, { tag: "text", text: " look\nhere" }],
      [{ tag: "img", image_key: "i" }, { tag: "emotion", emoji_type: "OK" }],
    ],
  }, ctx);
  assert.equal(p, "T @EmuBot look here [Image] 👌");
});
