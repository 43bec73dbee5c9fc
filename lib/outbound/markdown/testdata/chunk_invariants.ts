/**
 * Invariant checks the chunker tests share: the limit, no loss or reordering,
 * and balanced code fences (checked with the parser, independently of the
 * chunker's own bookkeeping). Test support only.
 * @module
 */

import { fail } from "node:assert/strict";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { gfm } from "micromark-extension-gfm";
import { codePointLength } from "../../../core/mod.ts";
import type { SplitResult } from "../types.ts";

const WS = /^\s*$/;

/**
 * Asserts: every chunk has at most `limit` counted code points, is
 * `prefix + source slice + suffix`, slices are in order, and everything
 * between (and around) them is whitespace — nothing lost, nothing reordered.
 */
export function assertChunked(source: string, result: SplitResult, limit: number): void {
  let pos = 0;
  result.chunks.forEach((c, i) => {
    const where = `chunk ${i + 1} of ${result.chunks.length}`;
    const counted = codePointLength(c.text) - c.uncounted;
    if (counted > limit) fail(`${where} has ${counted} code points, limit ${limit}`);
    if (c.uncounted > codePointLength(c.prefix) + codePointLength(c.suffix)) {
      fail(`${where} leaves out more than its synthetic text`);
    }
    if (c.text !== c.prefix + source.slice(c.start, c.end) + c.suffix) {
      fail(`${where} is not prefix + source slice + suffix`);
    }
    if (c.start < pos || c.end <= c.start) fail(`${where} is out of order or empty`);
    if (!WS.test(source.slice(pos, c.start))) {
      fail(`${where}: non-whitespace text was lost before it: ${source.slice(pos, c.start)}`);
    }
    if (c.text.trim() === "") fail(`${where} is blank`);
    if (!c.text.isWellFormed()) fail(`${where} splits a surrogate pair`);
    pos = c.end;
  });
  if (!WS.test(source.slice(pos))) fail(`text was lost after the last chunk`);
  const bodies = result.chunks.map((c) =>
    c.text.slice(c.prefix.length, c.text.length - c.suffix.length)
  );
  if (squeeze(bodies.join("")) !== squeeze(source)) {
    fail("the chunks without their synthetic text do not give back the source");
  }
}

/** The text without any whitespace. */
function squeeze(s: string): string {
  return s.replace(/\s+/g, "");
}

/** Block structure only: inline constructs cannot open or close a fence. */
const PARSE = {
  extensions: [gfm(), {
    disable: { null: ["attention", "labelEnd", "labelStartLink", "labelStartImage", "codeText"] },
  }],
  mdastExtensions: gfmFromMarkdown().filter((e) => !("transforms" in e)),
};

interface Node {
  type: string;
  children?: Node[];
  position?: { start: { offset?: number }; end: { offset?: number } };
}

/** Fenced code blocks of a markdown text that are never closed. */
export function unclosedFences(md: string): number {
  let open = 0;
  const stack: Node[] = [fromMarkdown(md, PARSE) as Node];
  while (stack.length > 0) {
    const n = stack.pop()!;
    stack.push(...(n.children ?? []));
    if (n.type !== "code") continue;
    const src = md.slice(n.position!.start.offset!, n.position!.end.offset!);
    const lines = src.split("\n");
    const opener = /^[ \t]*(`{3,}|~{3,})/.exec(lines[0]!);
    if (opener === null) continue;
    const closer = /^[ \t>]*([`~]{3,})[ \t\r]*$/.exec(lines.at(-1)!);
    const closed = lines.length > 1 && closer !== null &&
      closer[1]![0] === opener[1]![0] && closer[1]!.length >= opener[1]!.length;
    if (!closed) open++;
  }
  return open;
}

/**
 * Asserts every chunk's fences are balanced; only the last chunk may leave one
 * open, and only when the source does.
 */
export function assertFencesBalanced(source: string, result: SplitResult): void {
  const sourceOpen = unclosedFences(source) > 0;
  result.chunks.forEach((c, i) => {
    const open = unclosedFences(c.text);
    const last = i === result.chunks.length - 1;
    if (open > 0 && !(last && sourceOpen)) {
      fail(`chunk ${i + 1} leaves a code fence open:\n${c.text}`);
    }
  });
}
