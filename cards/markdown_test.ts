import { equal, ok } from "node:assert/strict";
import fc from "fast-check";
// The emulator's card renderer (CommonMark + GFM with Feishu's tags), as the web page draws cards.
import { renderMarkdown } from "../lib/emulator/web/render/markdown.ts";
import { cutEscaped, escapeMarkdown } from "./markdown.ts";

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"' };

/** One pass of HTML character reference decoding. */
const decode = (s: string) =>
  s.replace(
    /&(amp|lt|gt|quot|#\d+);/g,
    (_m, e: string) => e.startsWith("#") ? String.fromCodePoint(Number(e.slice(1))) : ENTITIES[e]!,
  );

/** The text a reader sees in rendered HTML, and the tags used to show it. */
function seen(html: string): { text: string; tags: string[] } {
  const tags: string[] = [];
  const text = html
    .replace(/<span class="emoji" title="([^"]*)">[^<]*<\/span>/g, ":$1:")
    .replace(/<a href="([^"]*)"[^>]*>([^<]*)<\/a>/g, (_m, href: string, inner: string) => {
      // A bare address the client made clickable: its text is the address itself. (GFM's
      // autolink reads the source, so an escaped character right after it shows as its
      // reference: cosmetic, never a disguise.) Kept out of the tag scan below.
      ok(href === inner || href === `http://${inner}` || href === `mailto:${inner}`, html);
      return decode(decode(inner)).replace(/</g, "\uE000").replace(/>/g, "\uE001");
    })
    .replace(/<\/?([a-z0-9]+)[^>]*>/g, (_m, tag: string) => {
      tags.push(tag);
      return "";
    });
  return { text: decode(text).replace(/\uE000/g, "<").replace(/\uE001/g, ">"), tags };
}

const squeeze = (s: string) => s.replace(/[\s\u00a0]+/g, "");

function assertPlain(input: string): void {
  const { text, tags } = seen(renderMarkdown(escapeMarkdown(input)));
  for (const tag of tags) ok(tag === "p" || tag === "br", `<${tag}> from ${JSON.stringify(input)}`);
  equal(squeeze(text), squeeze(input), `the text of ${JSON.stringify(input)}`);
}

const HOSTILE = [
  "<at id=all></at>",
  '<at user_id="ou_1">Alice</at>',
  "[click](https://evil.example/x)",
  "![img](img_v3_123)",
  "[ref][d]\n\n[d]: https://evil.example",
  "<font color=red>red</font> <link url='https://x'>x</link>",
  "**bold** *it* _it_ ~~del~~ `code` ```fence```",
  "# heading\n## two\n> quote\n- item\n+ item\n* item\n1. one\n2) two",
  "title\n===\nsub\n---",
  "| a | b |\n|---|---|\n| 1 | 2 |",
  "    indented code\n\tand a tab",
  "~~~\nfenced\n~~~",
  "&lt;at id=all&gt; stays &amp; as typed",
  "back\\slash \\<at id=all\\>",
  "<https://autolink.example> <script>alert(1)</script>",
  "- [x] task",
];

Deno.test("escaped hostile markdown renders as exactly its text in the emulator's card renderer", () => {
  for (const input of HOSTILE) assertPlain(input);
});

const PIECES = [
  "<",
  ">",
  "[",
  "]",
  "(",
  ")",
  "!",
  "*",
  "_",
  "~",
  "`",
  "\\",
  "|",
  "#",
  "-",
  "+",
  "=",
  "1.",
  "&",
  "&lt;",
  "&#91;",
  ":",
  " ",
  "    ",
  "\t",
  "\n",
  "at id=all",
  "font",
  "x",
  "img_v3_1",
];

Deno.test("no input can make an escaped text render as markup (property)", () => {
  const text = fc.oneof(
    fc.string({ maxLength: 60 }),
    fc.array(fc.constantFrom(...PIECES), { maxLength: 20 }).map((p) => p.join("")),
  );
  fc.assert(fc.property(text, (input) => assertPlain(input)), { numRuns: 1500 });
});

Deno.test("cutEscaped() never leaves half a character reference", () => {
  const escaped = escapeMarkdown("a<b>[c]*d*");
  for (let n = 0; n <= Array.from(escaped).length; n++) {
    const cut = cutEscaped(escaped, n);
    ok(!/&#?[A-Za-z0-9]*$/.test(cut) || cut.endsWith(";"), cut);
  }
});
