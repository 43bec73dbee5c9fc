/**
 * Large and hostile inputs for both chunkers. Every case asserts the limit,
 * no loss or reordering, and fence balance; some add their own facts.
 */
import { equal, ok } from "node:assert/strict";
import { splitMarkdown } from "./split_markdown.ts";
import { splitText } from "./split_text.ts";
import { assertChunked, assertFencesBalanced } from "./testdata/chunk_invariants.ts";
import type { SplitResult } from "./types.ts";

const LIMIT = 3500;
const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

function code(marker: string, info: string, lines: number): string {
  const body = Array.from({ length: lines }, (_, i) => `  call_${i}(x, y); // step ${i}`);
  return `${marker}${info}\n${body.join("\n")}\n${marker}`;
}

function table(columns: number, rows: number): string {
  const cells = (f: (c: number) => string) =>
    "| " + Array.from({ length: columns }, (_, c) => f(c)).join(" | ") + " |";
  const out = [cells((c) => `col ${c}`), cells(() => "---")];
  for (let r = 0; r < rows; r++) out.push(cells((c) => `r${r}c${c}`));
  return out.join("\n");
}

function nestedList(items: number): string {
  const out: string[] = [];
  for (let i = 0; i < items; i++) {
    out.push(`${"  ".repeat(i % 4)}- item ${i} with some words to fill the line a little`);
  }
  return out.join("\n");
}

/** Every cut lands on a grapheme boundary of the source. */
function assertGraphemeCuts(source: string, r: SplitResult): void {
  const bounds = new Set<number>([source.length]);
  for (const s of graphemes.segment(source)) bounds.add(s.index);
  for (const c of r.chunks) {
    ok(bounds.has(c.start) && bounds.has(c.end), `cut inside a grapheme at ${c.start}/${c.end}`);
  }
}

const AT = '<at user_id="ou_abcdef">Some Person</at>';

const markdownCases: { name: string; md: string; check?: (r: SplitResult) => void }[] = [
  {
    name: "splits a long ``` code block, each part reopened as c++",
    md: "Intro.\n\n" + code("```", "c++", 2000) + "\n\nOutro.",
    check: (r) => {
      ok(r.chunks.length > 10);
      for (const c of r.chunks.slice(1, -1)) ok(c.text.startsWith("```c++\n"), c.text.slice(0, 20));
    },
  },
  {
    name: "splits a long ~~~ code block, each part reopened with ~~~",
    md: code("~~~", "", 2000),
    check: (r) => {
      for (const c of r.chunks.slice(1)) ok(c.text.startsWith("~~~\n"));
    },
  },
  {
    name: "splits an unclosed fence and leaves only the last part open",
    md: "```js\n" + "let a = 1;\n".repeat(2000),
  },
  {
    name: "splits a huge table by rows with the header on every part",
    md: table(4, 1200),
    check: (r) => {
      for (const c of r.chunks) ok(c.text.startsWith("| col 0 | col 1 | col 2 | col 3 |\n"));
      equal(r.degradations.filter((d) => d.kind === "table_split").length, 1);
    },
  },
  {
    name: "reports a wide table",
    md: table(24, 20),
    check: (r) => ok(r.degradations.some((d) => d.kind === "table_wide")),
  },
  {
    name: "keeps at most five tables per part in a document of many small tables",
    md: Array.from({ length: 40 }, () => table(3, 2)).join("\n\n"),
    check: (r) => {
      for (const c of r.chunks) ok((c.text.match(/\| col 0/g) ?? []).length <= 5);
      ok(r.degradations.some((d) => d.kind === "table_count"));
    },
  },
  { name: "splits a long nested list", md: nestedList(1200) },
  {
    name: "cuts CJK prose without spaces at the limit",
    md: "中文字符测试内容".repeat(2000),
  },
  {
    name: "never splits a surrogate pair in a line of emoji",
    md: "😀🎉🚀".repeat(3000),
  },
  {
    name: "cuts a line of ZWJ sequences only between sequences",
    md: "👨‍👩‍👧‍👦👩🏽‍💻🏳️‍🌈".repeat(1500),
  },
  { name: "handles a document with no newline at all", md: "word ".repeat(20000) },
  {
    name: "keeps every <at> tag whole across many boundaries",
    md: Array.from({ length: 1500 }, (_, i) => `${AT} line ${i}`).join(" "),
    check: (r) => {
      for (const c of r.chunks) {
        equal((c.text.match(/<at /g) ?? []).length, (c.text.match(/<\/at>/g) ?? []).length);
      }
    },
  },
  {
    name: "splits a long fence inside a block quote with the quote marker",
    md: "> ```sh\n" + "> echo step\n".repeat(2000) + "> ```",
    check: (r) => {
      for (const c of r.chunks.slice(1)) ok(c.text.startsWith("> ```sh\n"));
    },
  },
];

for (const c of markdownCases) {
  Deno.test(`splitMarkdown() ${c.name}`, () => {
    const r = splitMarkdown(c.md, { limit: LIMIT });
    assertChunked(c.md, r, LIMIT);
    assertFencesBalanced(c.md, r);
    if (/\p{Extended_Pictographic}/u.test(c.md)) assertGraphemeCuts(c.md, r);
    c.check?.(r);
  });
}

Deno.test("splitMarkdown() chunks a 1 MB mixed document within the limit, losing nothing", () => {
  const part = [
    "# Section",
    "Some *prose* with `code`, a [link](https://example.com) and 中文 😀.",
    code("```", "ts", 30),
    table(3, 10),
    nestedList(12),
    "> a quote\n> over two lines",
    AT + " please look",
  ].join("\n\n") + "\n\n";
  const md = part.repeat(Math.ceil(1_000_000 / part.length));
  const r = splitMarkdown(md, { limit: LIMIT });
  ok(md.length >= 1_000_000);
  assertChunked(md, r, LIMIT);
  assertFencesBalanced(md, r);
});

Deno.test("splitText() chunks hostile text within the limit, losing nothing", () => {
  const inputs = [
    "x".repeat(20000),
    ("line\n").repeat(5000),
    "👨‍👩‍👧‍👦".repeat(2000),
    Array.from({ length: 2000 }, (_, i) => `${AT}${i % 7 === 0 ? "\n" : " "}`).join(""),
  ];
  for (const text of inputs) {
    const r = splitText(text, { limit: LIMIT });
    assertChunked(text, r, LIMIT);
    assertGraphemeCuts(text, r);
    for (const c of r.chunks) {
      equal((c.text.match(/<at /g) ?? []).length, (c.text.match(/<\/at>/g) ?? []).length);
    }
  }
});
