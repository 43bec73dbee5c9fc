import { deepEqual, equal, throws } from "node:assert/strict";
import { chunkMarkdown, splitMarkdown } from "./split_markdown.ts";
import { assertChunked, assertFencesBalanced } from "./testdata/chunk_invariants.ts";
import type { ChunkOptions, DegradationKind } from "./types.ts";

interface Case {
  name: string;
  md: string;
  options: ChunkOptions;
  want: string[];
  degradations?: DegradationKind[];
}

const cases: Case[] = [
  {
    name: "keeps a document within the limit whole, untouched",
    md: "\n# Title\n\nbody  \n",
    options: { limit: 3500 },
    want: ["\n# Title\n\nbody  \n"],
  },
  {
    name: "returns no chunk for a blank document",
    md: " \n\t\n",
    options: { limit: 10 },
    want: [],
  },
  {
    name: "packs whole blocks and cuts between them",
    md: "para one\n\npara two\n\npara three",
    options: { limit: 20 },
    want: ["para one\n\npara two", "para three"],
  },
  {
    name: "starts a new chunk at a heading once the chunk is 75 % full",
    md: "aaaaaaaaaaaaaaaa\n\n# H\n\nbb",
    options: { limit: 20 },
    want: ["aaaaaaaaaaaaaaaa", "# H\n\nbb"],
  },
  {
    name: "closes and reopens a ``` fence with its info string when a code block is cut",
    md: "```c++\nint a;\nint b;\nint c;\n```",
    options: { limit: 20 },
    want: ["```c++\nint a;\nint b;\n```", "```c++\nint c;\n```"],
  },
  {
    name: "reopens a ~~~ fence with the same marker",
    md: "~~~python\nx = 1\ny = 2\nz = 3\n~~~",
    options: { limit: 20 },
    want: ["~~~python\nx = 1\n~~~", "~~~python\ny = 2\nz = 3\n~~~"],
  },
  {
    name: "reopens a four-backtick fence that contains a ``` line",
    md: "````md\n```\ninner\n```\nmore\n````",
    options: { limit: 16 },
    want: ["````md\n```\ninner\n````", "````md\n```\nmore\n````"],
  },
  {
    name: "leaves an unclosed fence open only in the last chunk",
    md: "```\nline 1\nline 2\nline 3",
    options: { limit: 14 },
    want: ["```\nline 1\n```", "```\nline 2\nline 3"],
  },
  {
    name: "reopens a fence inside a block quote with the quote marker",
    md: "> ```js\n> one();\n> two();\n> ```",
    options: { limit: 20 },
    want: ["> ```js\n> one();\n> ```", "> ```js\n> two();\n> ```"],
  },
  {
    name: "reopens a fence nested in a list item without restarting the item",
    md: "- a\n  ```js\n  1\n  2\n  3\n  ```\n- b",
    options: { limit: 16 },
    want: ["- a\n  ```js\n  1\n  ```", "  ```js\n  2\n  3\n  ```", "- b"],
  },
  {
    name: "splits a table by rows and repeats its header row",
    md: "| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n| 5 | 6 |\n| 7 | 8 |",
    options: { limit: 50 },
    want: [
      "| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n| 5 | 6 |",
      "| a | b |\n|---|---|\n| 7 | 8 |",
    ],
    degradations: ["table_split"],
  },
  {
    name: "never cuts between a table's header row and its delimiter row",
    md: "intro\n| a | b |\n|---|---|\n| 1 | 2 |",
    options: { limit: 30 },
    want: ["intro", "| a | b |\n|---|---|\n| 1 | 2 |"],
  },
  {
    name: "puts at most maxTablesPerChunk tables in one chunk",
    md: "| a |\n|---|\n| 1 |\n\n| b |\n|---|\n| 2 |\n\n| c |\n|---|\n| 3 |",
    options: { limit: 3500, maxTablesPerChunk: 2 },
    want: ["| a |\n|---|\n| 1 |\n\n| b |\n|---|\n| 2 |", "| c |\n|---|\n| 3 |"],
    degradations: ["table_count"],
  },
  {
    name: "reports a table wider than maxTableColumns and keeps it as written",
    md: "| a | b | c |\n|---|---|---|\n| 1 | 2 | 3 |",
    options: { limit: 3500, maxTableColumns: 2 },
    want: ["| a | b | c |\n|---|---|---|\n| 1 | 2 | 3 |"],
    degradations: ["table_wide"],
  },
  {
    name: "prefers a list item boundary to any other line in a long list",
    md: "- one one one\n  more\n- two two\n  more\n- three",
    options: { limit: 36 },
    want: ["- one one one\n  more", "- two two\n  more\n- three"],
  },
  {
    name: "cuts a line longer than the limit after a space",
    md: "alpha beta gamma delta epsilon",
    options: { limit: 12 },
    want: ["alpha beta ", "gamma delta ", "epsilon"],
    degradations: ["line_split"],
  },
  {
    name: "keeps an <at> tag whole when the limit falls inside it",
    md: 'hey there you <at user_id="ou_1">Bob</at>',
    options: { limit: 30 },
    want: ["hey there you ", '<at user_id="ou_1">Bob</at>'],
    degradations: ["line_split"],
  },
  {
    name: "cuts an <at> tag longer than the limit and says so",
    md: '<at user_id="ou_123456">Somebody</at>',
    options: { limit: 20 },
    want: ['<at user_id="ou_1234', '56">Somebody</at>'],
    degradations: ["line_split", "at_tag_split"],
  },
  {
    name: "counts code points, not UTF-16 units, for CJK and emoji",
    md: "中文中文中文\n\n😀😀😀😀😀😀",
    options: { limit: 6 },
    want: ["中文中文中文", "😀😀😀😀😀😀"],
  },
  {
    name: "never splits a ZWJ emoji sequence that fits in a chunk",
    md: "ab👨‍👩‍👧cd",
    options: { limit: 6 },
    want: ["ab", "👨‍👩‍👧c", "d"],
    degradations: ["line_split"],
  },
  {
    name: "drops blank lines around chunks and keeps CRLF lines whole",
    md: "\n\nline one\r\nline two\r\n\r\nline three\r\n\n",
    options: { limit: 18 },
    want: ["line one\r\nline two", "line three"],
  },
];

for (const c of cases) {
  Deno.test(`splitMarkdown() ${c.name}`, () => {
    const r = splitMarkdown(c.md, c.options);
    deepEqual(r.chunks.map((x) => x.text), c.want);
    deepEqual(r.degradations.map((d) => d.kind), c.degradations ?? []);
    assertChunked(c.md, r, c.options.limit);
    assertFencesBalanced(c.md, r);
  });
}

Deno.test("chunkMarkdown() returns the chunk texts of splitMarkdown()", () => {
  const md = "para one\n\npara two\n\npara three";
  deepEqual(chunkMarkdown(md, { limit: 20 }), ["para one\n\npara two", "para three"]);
});

Deno.test("splitMarkdown() rejects a limit that is not a positive integer", () => {
  throws(() => splitMarkdown("x", { limit: 0 }), /Expected limit to be an integer greater than 0/);
  throws(() => splitMarkdown("x", { limit: 2.5 }), /but found 2.5/);
});

Deno.test("splitMarkdown() says how a split table was shown", () => {
  const md = "| a | b |\n|---|---|\n" + "| 1 | 2 |\n".repeat(30);
  const r = splitMarkdown(md, { limit: 100 });
  equal(r.degradations.length, 1);
  equal(
    r.degradations[0]!.detail,
    `The table at line 1 was split by rows across ${r.chunks.length} messages; ` +
      "its header row is repeated at the top of each part",
  );
  for (const c of r.chunks) equal(c.text.startsWith("| a | b |\n|---|---|\n| 1 | 2 |"), true);
  assertChunked(md, r, 100);
});
