import assert from "node:assert/strict";
import fc from "fast-check";
import { ftsQuery, nameMayHold, requiredPieces } from "./search_plan.ts";

Deno.test("requiredPieces() names the literal runs a match must hold and nothing it is unsure of", () => {
  const cases: [string, string[]][] = [
    ["needle", ["needle"]],
    [String.raw`needle\s+\d+`, ["needle"]],
    [String.raw`^deploy (prod|staging) failed$`, ["deploy ", " failed"]],
    ["colou?r scheme", ["colo", "r scheme"]],
    ["ab+cd", ["bcd"]],
    ["abc*def", ["def"]],
    [String.raw`a\.b\.c`, ["a.b.c"]],
    [String.raw`\x41BCD`, ["BCD"]],
    [String.raw`\u0041BCD`, ["BCD"]],
    [String.raw`(x)\1abc`, ["abc"]],
    ["[abc]def", ["def"]],
    ["x{2}yz", ["xyz"]],
    ["x{0,2}yzw", ["yzw"]],
    ["cat|dog", []],
    ["Straße", ["Stra"]],
    ["你好世界", ["你好世界"]],
    ["ab", []],
  ];
  for (const [pattern, pieces] of cases) {
    assert.deepEqual(requiredPieces(pattern), pieces, pattern);
  }
});

Deno.test("ftsQuery() quotes each piece as a phrase, doubling quotes", () => {
  assert.equal(ftsQuery(['say "hi"', "abc"]), '"say ""hi""" AND "abc"');
});

Deno.test("nameMayHold() sees a piece inside the name or running from the text into it", () => {
  assert.equal(nameMayHold("Annabel", ["annab"]), true);
  assert.equal(nameMayHold("Annabel", ["hi anna"]), true);
  assert.equal(nameMayHold("Annabel", ["hi bob"]), false);
  assert.equal(nameMayHold("Annabel", ["hello"]), false);
  assert.equal(nameMayHold("", ["abc"]), false);
});

// Patterns built from atoms the reader must handle, each with a way to write
// a text it matches, over an alphabet with case pairs, a sharp s, CJK, a
// space and regex metacharacters; texts are built to match.
const CHARS = ["a", "A", "b", "B", "c", "ß", "ẞ", "ſ", "s", "k", "K", "你", " ", "é", "É"];
const pick = <T>(xs: readonly T[], n: number): T => xs[n % xs.length]!;
type Atom = { source: string; sample: (n: number) => string };
/** `c` in the other case when the regex's `i` flag takes that as `c`. */
const swapCase = (c: string, n: number) => {
  const other = n % 2 ? c.toUpperCase() : c.toLowerCase();
  return other.length === 1 && new RegExp(c, "i").test(other) ? other : c;
};
const ATOMS: Atom[] = [
  ...CHARS.map((c) => ({ source: c, sample: (n: number) => swapCase(c, n) })),
  { source: ".", sample: (n) => pick(CHARS, n) },
  { source: String.raw`\.`, sample: () => "." },
  { source: String.raw`\s`, sample: () => " " },
  { source: String.raw`\w`, sample: (n) => pick(["a", "B", "k"], n) },
  { source: String.raw`\d`, sample: (n) => String(n % 10) },
  { source: "[ab]", sample: (n) => pick(["a", "B"], n) },
  { source: "[^a]", sample: (n) => pick(["b", "你"], n) },
  { source: "(a|b)", sample: (n) => pick(["A", "b"], n) },
  { source: "(?:ab)", sample: () => "aB" },
  { source: String.raw`a`, sample: () => "A" },
  { source: String.raw`b`, sample: () => "b" },
];
const QUANTIFIERS: { source: string; min: number; max: number }[] = [
  { source: "", min: 1, max: 1 },
  { source: "", min: 1, max: 1 },
  { source: "*", min: 0, max: 2 },
  { source: "+", min: 1, max: 3 },
  { source: "?", min: 0, max: 1 },
  { source: "{2}", min: 2, max: 2 },
  { source: "{0,1}", min: 0, max: 1 },
  { source: "+?", min: 1, max: 2 },
];
const part = fc.tuple(
  fc.constantFrom(...ATOMS),
  fc.constantFrom(...QUANTIFIERS),
  fc.array(fc.nat(), { minLength: 3, maxLength: 3 }),
);
const noise = fc.array(fc.constantFrom(...CHARS), { maxLength: 6 }).map((xs) => xs.join(""));

Deno.test("requiredPieces(): a text the regex matches holds every piece", () => {
  fc.assert(
    fc.property(
      fc.array(part, { minLength: 1, maxLength: 14 }),
      noise,
      noise,
      (parts, pre, post) => {
        const source = parts.map(([a, q]) => a.source + q.source).join("");
        const text = pre + parts.map(([a, q, ns]) => {
          const times = q.min + (ns[0]! % (q.max - q.min + 1));
          return Array.from({ length: times }, (_, k) => a.sample(ns[1]! + k * ns[2]!)).join("");
        }).join("") + post;
        assert.ok(
          new RegExp(source, "i").test(text),
          `${source} must match ${JSON.stringify(text)}`,
        );
        for (const piece of requiredPieces(source)) {
          // The index folds only what foldsAlike() lets in: ASCII case and caseless characters.
          assert.ok(
            text.toLowerCase().includes(piece.toLowerCase()),
            `${source} matched ${JSON.stringify(text)} without ${JSON.stringify(piece)}`,
          );
        }
      },
    ),
    { numRuns: 5000 },
  );
});
