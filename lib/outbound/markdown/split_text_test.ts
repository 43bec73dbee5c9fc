import { deepEqual } from "node:assert/strict";
import { chunkText, splitText } from "./split_text.ts";
import { assertChunked } from "./testdata/chunk_invariants.ts";

const cases: { name: string; text: string; limit: number; want: string[]; tagSplit?: boolean }[] = [
  { name: "keeps text within the limit whole", text: "hello\n", limit: 6, want: ["hello\n"] },
  { name: "returns no chunk for blank text", text: "  \n ", limit: 6, want: [] },
  {
    name: "cuts at the last newline that fits and drops it",
    text: "one\ntwo\nthree\nfour",
    limit: 9,
    want: ["one\ntwo", "three", "four"],
  },
  {
    name: "takes a newline exactly at the limit",
    text: "abcd\nefgh",
    limit: 4,
    want: ["abcd", "efgh"],
  },
  {
    name: "cuts a line without newlines at exactly the limit",
    text: "abcdefghij",
    limit: 4,
    want: ["abcd", "efgh", "ij"],
  },
  {
    name: "moves a cut that falls inside an <at> tag to the tag's start",
    text: 'hi there <at user_id="ou_1">Al</at> ok',
    limit: 30,
    want: ["hi there ", '<at user_id="ou_1">Al</at> ok'],
  },
  {
    name: "cuts an <at> tag longer than the limit and reports it once",
    text: 'hi <at user_id="ou_1">Al</at> there',
    limit: 12,
    want: ["hi ", "<at user_id=", '"ou_1">Al</a', "t> there"],
    tagSplit: true,
  },
  {
    name: "keeps an <at> tag across a newline boundary whole",
    text: 'hello\n<at user_id="ou_1">Al</at>',
    limit: 26,
    want: ["hello", '<at user_id="ou_1">Al</at>'],
  },
  {
    name: "counts CJK characters as one each",
    text: "一二三四五六七八",
    limit: 3,
    want: ["一二三", "四五六", "七八"],
  },
  {
    name: "never splits a surrogate pair",
    text: "😀😀😀😀😀",
    limit: 2,
    want: ["😀😀", "😀😀", "😀"],
  },
  {
    name: "keeps a ZWJ sequence whole when it fits",
    text: "ab👩‍💻cd",
    limit: 4,
    want: ["ab", "👩‍💻c", "d"],
  },
  {
    name: "drops whitespace-only chunks",
    text: "a\n" + " ".repeat(8) + "\nb",
    limit: 4,
    want: ["a", "b"],
  },
  {
    name: "drops the carriage return of a CRLF cut",
    text: "abc\r\ndef",
    limit: 5,
    want: ["abc", "def"],
  },
];

for (const c of cases) {
  Deno.test(`splitText() ${c.name}`, () => {
    const r = splitText(c.text, { limit: c.limit });
    deepEqual(r.chunks.map((x) => x.text), c.want);
    deepEqual(r.degradations.map((d) => d.kind), c.tagSplit ? ["at_tag_split"] : []);
    assertChunked(c.text, r, c.limit);
  });
}

Deno.test("chunkText() returns the chunk texts of splitText()", () => {
  deepEqual(chunkText("one\ntwo\nthree", { limit: 7 }), ["one\ntwo", "three"]);
});
