/**
 * Property tests: over generated markdown and text, every chunk respects the
 * limit, nothing is lost or reordered, code fences stay balanced, and mention
 * tags stay whole unless a degradation says otherwise.
 */
import { equal } from "node:assert/strict";
import fc from "fast-check";
import { splitMarkdown } from "./split_markdown.ts";
import { splitText } from "./split_text.ts";
import { assertChunked, assertFencesBalanced } from "./testdata/chunk_invariants.ts";
import type { SplitResult } from "./types.ts";

const AT = '<at user_id="ou_1">Bob</at>';

const word = fc.constantFrom(
  "alpha",
  "beta",
  "gamma",
  "中文",
  "😀",
  "👨‍👩‍👧",
  "x".repeat(40),
  AT,
  "**bold**",
  "`code`",
  "[link](https://example.com)",
  "a|b",
);
const line = fc.array(word, { minLength: 1, maxLength: 14 }).map((ws) => ws.join(" "));
const codeLine = fc.oneof(
  fc.constantFrom("", "  indented();", "x = 1 # comment", "<b>html</b>", "| not | a table |"),
  line,
);
const paragraph = fc.array(line, { minLength: 1, maxLength: 4 }).map((ls) => ls.join("\n"));
const heading = fc.tuple(fc.integer({ min: 1, max: 6 }), line)
  .map(([n, l]) => `${"#".repeat(n)} ${l}`);
const fence = fc.tuple(
  fc.constantFrom("```", "~~~", "````"),
  fc.constantFrom("", "c++", "js", "python title"),
  fc.array(codeLine, { maxLength: 30 }),
).map(([marker, info, lines]) => {
  const inner = marker === "````" ? ["```", ...lines, "```"] : lines;
  return `${marker}${info}\n${inner.join("\n")}\n${marker}`;
});
const table = fc.tuple(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 0, max: 30 }), word)
  .map(([cols, rows, w]) => {
    const row = (cell: (c: number) => string) =>
      "| " + Array.from({ length: cols }, (_, c) => cell(c)).join(" | ") + " |";
    const out = [row((c) => `h${c}`), row(() => "---")];
    for (let r = 0; r < rows; r++) out.push(row((c) => `${w.replaceAll("|", "/")} ${r}.${c}`));
    return out.join("\n");
  });
const list = fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), line), {
  minLength: 1,
  maxLength: 20,
}).map((items) => items.map(([d, l]) => `${"  ".repeat(d)}- ${l}`).join("\n"));
const quote = paragraph.map((p) => p.split("\n").map((l) => `> ${l}`).join("\n"));
const block = fc.oneof(paragraph, heading, fence, table, list, quote);

const markdown = fc.tuple(
  fc.array(fc.tuple(block, fc.constantFrom("\n\n", "\n\n\n")), { minLength: 1, maxLength: 14 }),
  fc.option(fc.array(codeLine, { maxLength: 20 }), { nil: undefined }),
).map(([blocks, unclosed]) => {
  const body = blocks.map(([b, sep]) => b + sep).join("");
  return unclosed === undefined ? body : `${body}\`\`\`sh\n${unclosed.join("\n")}\n`;
});

function assertTagsWhole(r: SplitResult): void {
  if (r.degradations.some((d) => d.kind === "at_tag_split")) return;
  for (const c of r.chunks) {
    equal((c.text.match(/<at /g) ?? []).length, (c.text.match(/<\/at>/g) ?? []).length);
  }
}

Deno.test("splitMarkdown() keeps the limit, the content and the fences over generated markdown", () => {
  fc.assert(
    fc.property(markdown, fc.integer({ min: 30, max: 600 }), (md, limit) => {
      const r = splitMarkdown(md, { limit });
      assertChunked(md, r, limit);
      assertFencesBalanced(md, r);
      assertTagsWhole(r);
    }),
    { numRuns: 80 },
  );
});

const fragment = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.constantFrom("\n", "\n\n", AT, "👨‍👩‍👧‍👦", "中文字符", "   "),
);

Deno.test("splitText() keeps the limit and the content over generated text", () => {
  fc.assert(
    fc.property(
      fc.array(fragment, { maxLength: 40 }).map((f) => f.join("")),
      fc.integer({ min: 1, max: 80 }),
      (text, limit) => {
        const r = splitText(text, { limit });
        assertChunked(text, r, limit);
        assertTagsWhole(r);
      },
    ),
    { numRuns: 300 },
  );
});
