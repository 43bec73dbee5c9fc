import assert from "node:assert/strict";
import { messagePreview, renderBody, renderText } from "./message.ts";
import { contextFor } from "./types.ts";

const state = {
  app: { app_id: "cli_1", bot_open_id: "ou_bot", bot_name: "EmuBot" },
  users: [{ open_id: "ou_alice", name: "Alice" }],
  chats: [{ chat_id: "oc_team", name: "Team", chat_mode: "group", members: [], bot_member: true }],
};
const ctx = contextFor(state, [{ key: "@_user_1", id: "ou_bot", name: "EmuBot" }]);

Deno.test("renderText() turns placeholders, <at> tags and URLs into chips and links", () => {
  assert.equal(
    renderText(
      '@_user_1 @_all <at user_id="ou_alice">Al</at> see https://a.example/?q=1&r=<2>\nok',
      ctx,
    ),
    '<span class="mention">@EmuBot</span> <span class="mention">@All</span> ' +
      '<span class="mention">@Al</span> see <a href="https://a.example/?q=1&amp;r=" ' +
      'target="_blank" rel="noopener noreferrer">https://a.example/?q=1&amp;r=</a>&lt;2&gt;<br>ok',
  );
});

Deno.test("renderText() leaves an unknown placeholder as written", () => {
  assert.equal(renderText("@_user_9 hi", ctx), "@_user_9 hi");
});

const tiles: { type: string; content: unknown; has: string[] }[] = [
  {
    type: "text",
    content: { text: "<i>x</i>" },
    has: ['<div class="text">&lt;i&gt;x&lt;/i&gt;</div>'],
  },
  {
    type: "image",
    content: { image_key: "img_1" },
    has: ['<a class="msg-img" href="/__emu/api/resource/img_1" target="_blank"><img src='],
  },
  {
    type: "file",
    content: { file_key: "file_1", file_name: "report <1>.pdf" },
    has: ['href="/__emu/api/resource/file_1" download="report &lt;1&gt;.pdf"', "📄"],
  },
  {
    type: "audio",
    content: { file_key: "file_2", duration: 3200 },
    has: [
      "Voice message",
      "3s",
      '<audio controls preload="none" src="/__emu/api/resource/file_2">',
    ],
  },
  {
    type: "media",
    content: { file_key: "file_3", image_key: "img_3", file_name: "clip.mp4", duration: 61000 },
    has: ['<img src="/__emu/api/resource/img_3" alt="video cover">', "clip.mp4 61s"],
  },
  {
    type: "sticker",
    content: { file_key: "file_4" },
    has: ['<img class="sticker" src="/__emu/api/resource/file_4" alt="sticker">'],
  },
  { type: "share_chat", content: { chat_id: "oc_team" }, has: ["Team", "Shared group"] },
  { type: "share_user", content: { user_id: "ou_alice" }, has: ["Alice", "Shared contact"] },
  {
    type: "post",
    content: { title: "P", content: [[{ tag: "text", text: "x" }]] },
    has: ['<div class="post-title">P</div>'],
  },
  {
    type: "interactive",
    content: { schema: "2.0", body: { elements: [{ tag: "markdown", content: "**c**" }] } },
    has: ['<div class="card">', "<strong>c</strong>"],
  },
  {
    type: "merge_forward",
    content: { x: "<y>" },
    has: ["[merge_forward]", "&quot;&lt;y&gt;&quot;"],
  },
];

for (const t of tiles) {
  Deno.test(`renderBody() renders a ${t.type} message`, () => {
    const html = renderBody({ msg_type: t.type, content: t.content }, ctx);
    for (const piece of t.has) assert.ok(html.includes(piece), `${piece} in ${html}`);
  });
}

const previews: { type: string; content: unknown; deleted?: boolean; want: string }[] = [
  { type: "text", content: { text: "@_user_1  hi" }, want: "@EmuBot hi" },
  { type: "text", content: { text: "gone" }, deleted: true, want: "This message was recalled" },
  { type: "image", content: {}, want: "[Image]" },
  { type: "file", content: { file_name: "a.txt" }, want: "[File] a.txt" },
  {
    type: "interactive",
    content: { schema: "2.0", header: { title: { content: "LingTai" } }, body: { elements: [] } },
    want: "[Card] LingTai",
  },
  { type: "share_chat", content: { chat_id: "oc_team" }, want: "[Group] Team" },
  { type: "share_user", content: { user_id: "ou_x" }, want: "[Contact] ou_x" },
  { type: "system", content: {}, want: "[system]" },
];

for (const p of previews) {
  Deno.test(`messagePreview() summarises ${p.deleted ? "a recalled" : `a ${p.type}`} message`, () => {
    const msg = { msg_type: p.type, content: p.content, deleted: p.deleted ?? false };
    assert.equal(messagePreview(msg, ctx), p.want);
  });
}
