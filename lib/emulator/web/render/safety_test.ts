/**
 * Property tests: whatever a message contains, the renderers emit only the
 * page's own tags and attributes, and no link with a scheme other than
 * http(s) or mailto.
 */

import assert from "node:assert/strict";
import fc from "fast-check";
import { renderCard } from "./card.ts";
import { chatControlsHtml } from "./chat_controls.ts";
import { renderMarkdown } from "./markdown.ts";
import { renderBody } from "./message.ts";
import { renderPost } from "./post.ts";
import { contextFor } from "./types.ts";

const TAGS = new Set([
  "a",
  "blockquote",
  "br",
  "button",
  "code",
  "del",
  "details",
  "div",
  "em",
  "figure",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "hr",
  "img",
  "input",
  "li",
  "ol",
  "option",
  "p",
  "pre",
  "section",
  "select",
  "span",
  "strong",
  "summary",
  "sup",
  "table",
  "tbody",
  "td",
  "th",
  "thead",
  "tr",
  "u",
  "ul",
  "audio",
]);
const ATTRS = new Set([
  "class",
  "href",
  "target",
  "rel",
  "src",
  "alt",
  "title",
  "style",
  "type",
  "start",
  "download",
  "controls",
  "preload",
  "disabled",
  "checked",
  "open",
  "data-value",
  "data-url",
  "data-name",
  "data-tag",
  "data-form",
  "data-form-action",
  "data-control",
  "placeholder",
  "value",
  "selected",
]);

/** Throws unless every tag and attribute in `html` is one the page itself writes. */
function assertSafe(html: string): void {
  for (const m of html.matchAll(/<(\/?)([a-zA-Z0-9]+)([^>]*)>/g)) {
    const [, closing, name = "", rest = ""] = m;
    assert.ok(TAGS.has(name), `unexpected tag <${name}> in ${html}`);
    if (closing) {
      assert.equal(rest, "", `attributes on a closing tag in ${html}`);
      continue;
    }
    const attrs = rest.replace(/\s([a-z-]+)="[^"<>]*"/g, (_all, attr: string) => {
      assert.ok(ATTRS.has(attr), `unexpected attribute ${attr} in ${html}`);
      return "";
    });
    assert.match(
      attrs,
      /^(\s(disabled|checked|controls|open|selected))*$/,
      `stray markup in <${name}${rest}>`,
    );
    for (const h of rest.matchAll(/\s(?:href|src)="([^"]*)"/g)) {
      assert.match(
        h[1] ?? "",
        /^(https?:|mailto:|\/__emu\/api\/resource\/)/i,
        `bad URL in ${html}`,
      );
    }
    const style = /\sstyle="([^"]*)"/.exec(rest)?.[1];
    if (style !== undefined) {
      assert.match(style, /^(text-align:(left|center|right)|flex:[\d.]+ 1 0|flex:0 0 auto)$/);
    }
  }
}

const NASTY = [
  "<script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  "</at>",
  '<at id="ou_x">',
  "<at id=all>",
  "<font color='red'>",
  "</font>",
  "<br>",
  "javascript:alert(1)",
  "[x](",
  ")",
  "![y](",
  "**",
  "_",
  "~~",
  "`",
  "```",
  "~~~",
  "| a | b |\n|---|---|\n",
  "- ",
  "1. ",
  "> ",
  "# ",
  "\n",
  "\n\n",
  '"',
  "'",
  "&",
  "&lt;",
  "<",
  ">",
  ":DONE:",
  "https://e.example/a?b=1&c=2",
  "[r]: javascript:x\n[r]",
  "<!-- c -->",
  "<div onclick=x>",
  "\u0000",
  "😀",
  "中文",
];
const nasty = fc.array(fc.oneof(fc.constantFrom(...NASTY), fc.string()), { maxLength: 12 })
  .map((parts) => parts.join(""));
const ctx = contextFor(undefined, [{ key: "@_user_1", id: "ou_x", name: "<b>x</b>" }]);
const RUNS = { numRuns: 300 };

Deno.test("renderMarkdown() emits only the page's own tags for any input", () => {
  fc.assert(fc.property(nasty, (md) => assertSafe(renderMarkdown(md, { ctx }))), RUNS);
});

Deno.test("renderPost() emits only the page's own tags for any element text", () => {
  const tag = fc.constantFrom(
    "text",
    "a",
    "at",
    "img",
    "media",
    "emotion",
    "code_block",
    "hr",
    "md",
  );
  const el = fc.record({
    tag,
    text: nasty,
    href: nasty,
    user_id: nasty,
    user_name: nasty,
    image_key: nasty,
    file_key: nasty,
    emoji_type: nasty,
    language: nasty,
    style: fc.array(fc.constantFrom("bold", "italic", "underline", "lineThrough", "<x>")),
  });
  fc.assert(
    fc.property(
      nasty,
      fc.array(fc.array(el, { maxLength: 4 }), { maxLength: 3 }),
      (title, content) => assertSafe(renderPost({ title, content }, ctx)),
    ),
    RUNS,
  );
});

Deno.test("renderCard() emits only the page's own tags for any card text", () => {
  const text = fc.record({ tag: fc.constantFrom("plain_text", "lark_md", "x"), content: nasty });
  const el = fc.oneof(
    fc.record({ tag: fc.constant("markdown"), content: nasty, text_align: nasty }),
    fc.record({ tag: fc.constant("div"), text, fields: fc.array(fc.record({ text })) }),
    fc.record({
      tag: fc.constant("button"),
      text,
      type: nasty,
      name: nasty,
      url: nasty,
      value: fc.jsonValue(),
      behaviors: fc.array(
        fc.record({ type: fc.constantFrom("callback", "open_url"), default_url: nasty }),
      ),
    }),
    fc.record({ tag: fc.constant("img"), img_key: nasty, alt: text }),
    fc.record({
      tag: fc.constant("input"),
      name: nasty,
      placeholder: text,
      default_value: nasty,
      label: text,
      input_type: nasty,
      value: fc.jsonValue(),
    }),
    fc.record({
      tag: fc.constant("select_static"),
      name: nasty,
      placeholder: text,
      initial_option: nasty,
      options: fc.array(fc.record({ text, value: nasty }), { maxLength: 3 }),
    }),
    fc.record({
      tag: fc.constant("form"),
      name: nasty,
      elements: fc.array(
        fc.record({ tag: fc.constantFrom("input", "select_static", "button"), name: nasty }),
        { maxLength: 3 },
      ),
    }),
    fc.record({ tag: fc.constant("button"), form_action_type: nasty, text }),
    fc.record({ tag: nasty }),
  );
  const card = fc.record({
    schema: fc.constant("2.0"),
    header: fc.record({ title: text, subtitle: text, template: nasty }),
    body: fc.record({ elements: fc.array(el, { maxLength: 5 }) }),
  });
  fc.assert(fc.property(card, (c) => assertSafe(renderCard(c, ctx))), RUNS);
});

Deno.test("renderBody() emits only the page's own tags for any message type and content", () => {
  const type = fc.constantFrom(
    "text",
    "post",
    "interactive",
    "image",
    "file",
    "audio",
    "media",
    "sticker",
    "share_chat",
    "share_user",
    "system",
    "<x>",
  );
  const content = fc.dictionary(
    fc.constantFrom("text", "image_key", "file_key", "file_name", "chat_id", "user_id", "title"),
    nasty,
  );
  fc.assert(
    fc.property(type, content, (t, c) => assertSafe(renderBody({ msg_type: t, content: c }, ctx))),
    RUNS,
  );
});

Deno.test("chatControlsHtml() emits only the page's own tags for any bot name", () => {
  fc.assert(
    fc.property(nasty, fc.boolean(), (name, bot_member) => {
      const state = {
        app: { app_id: "cli", bot_open_id: "ou_b", bot_name: name },
        users: [],
        chats: [],
      };
      const chat = {
        chat_id: name,
        name,
        chat_mode: "group",
        members: ["ou_a"],
        bot_member,
        owner_id: "ou_a",
      };
      assertSafe(chatControlsHtml(chat, state, "ou_a"));
    }),
    RUNS,
  );
});

Deno.test("the safety oracle itself rejects injected tags, handlers and bad URLs", () => {
  for (
    const bad of [
      "<script>x</script>",
      '<img src="x" onerror="y">',
      '<a href="javascript:x">',
      '<p style="color:red">',
      "<div class=x>",
    ]
  ) {
    assert.throws(() => assertSafe(bad), assert.AssertionError, bad);
  }
  assertSafe('<a href="https://x" target="_blank">ok</a><input type="checkbox" disabled checked>');
});
