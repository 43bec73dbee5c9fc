import assert from "node:assert/strict";
import { BridgeError } from "../../core/mod.ts";
import { assertMarkdownNesting, markdownNesting, MAX_MARKDOWN_NESTING } from "./nesting.ts";

Deno.test("markdownNesting counts list and quote markers, indentation before a list marker, and open brackets", () => {
  assert.equal(markdownNesting("plain text\n\nmore").depth, 0);
  assert.equal(markdownNesting("- a\n  - b\n    - c\n      - d").depth, 4);
  assert.equal(markdownNesting("1. a\n1) b\n> - 2. c").depth, 3);
  assert.equal(markdownNesting("> > > > quote").depth, 4);
  assert.equal(markdownNesting("[a [b [c](x)](y)](z)").depth, 3);
  // Brackets close at a blank line (a link never spans one).
  assert.equal(markdownNesting("[[[\n\n[x]").depth, 3);
  // Emphasis and rules are not containers.
  assert.equal(markdownNesting("*bold* and **strong**\n***").depth, 0);
});

Deno.test("markdownNesting ignores fenced code, and reports the line of the deepest point", () => {
  const md = "intro\n```\n" + "- ".repeat(100) + "\n[[[[[[\n```\n\n- a\n  - b";
  assert.deepEqual(markdownNesting(md), { depth: 2, line: 8 });
  assert.equal(markdownNesting("~~~~\n> > >\n~~~\n> > >\n~~~~").depth, 0);
});

Deno.test("markdownNesting is linear: ten thousand levels in one line and in many are measured whole", () => {
  assert.equal(markdownNesting("- ".repeat(10_000) + "x").depth, 10_000);
  assert.equal(markdownNesting("[".repeat(10_000)).depth, 10_000);
  const stairs = Array.from({ length: 200 }, (_, i) => "  ".repeat(i) + "- a").join("\n");
  assert.equal(markdownNesting(stairs).depth, 200);
  // Stops early once past the bound asked for.
  assert.equal(markdownNesting("- ".repeat(10_000), 40).depth, 41);
});

Deno.test("assertMarkdownNesting accepts the budget and refuses one level past it with a FORMAT_ERROR naming it", () => {
  assertMarkdownNesting("> ".repeat(MAX_MARKDOWN_NESTING) + "x");
  assert.throws(
    () =>
      assertMarkdownNesting("\n\n" + "> ".repeat(MAX_MARKDOWN_NESTING + 1) + "x", "the caption"),
    (e: unknown) =>
      e instanceof BridgeError && e.code === "FORMAT_ERROR" && !e.retryable &&
      e.message.startsWith(`Expected the caption nested at most ${MAX_MARKDOWN_NESTING} levels`) &&
      e.message.includes("at line 3"),
  );
});
