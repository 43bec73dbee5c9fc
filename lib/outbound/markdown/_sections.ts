/**
 * Parses markdown with the real CommonMark/GFM parser (micromark via
 * mdast-util-from-markdown) in independent sections, so megabyte inputs stay
 * linear: the parser is measurably superlinear on one huge string.
 *
 * A section ends before a non-indented line that follows a blank line. There,
 * every container (list, quote, indented code, table, paragraph) has closed,
 * unless a top-level fenced code block or an HTML block of kinds 1–5 is still
 * open; the parser's own tree tells us when that happens, and the section is
 * then extended past the construct's end and re-parsed from its start.
 * @module
 */

import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { gfm } from "micromark-extension-gfm";
import type { SourceIndex } from "./_source.ts";

/** The parser's node shape, as far as the chunker reads it. */
export interface MdNode {
  type: string;
  children?: MdNode[];
  position?: { start: { offset?: number }; end: { offset?: number } };
}

/**
 * Inline constructs never change block structure; turning them off (and the
 * tree-wide autolink transform) roughly halves the parse time.
 */
const INLINE = [
  "attention",
  "autolink",
  "characterEscape",
  "characterReference",
  "codeText",
  "hardBreakEscape",
  "htmlText",
  "labelEnd",
  "labelStartImage",
  "labelStartLink",
  "wwwAutolink",
  "protocolAutolink",
  "emailAutolink",
  "gfmFootnoteCall",
  "gfmPotentialFootnoteCall",
  "strikethrough",
  "tasklistCheck",
];
const PARSE_OPTIONS = {
  extensions: [gfm(), { disable: { null: INLINE } }],
  mdastExtensions: gfmFromMarkdown().filter((e) => !("transforms" in e)),
};

/** Sections are parsed in units of about this many characters (fewest calls, no superlinear cost). */
const UNIT = 2000;

/** One top-level block and the offset its positions are relative to. */
export interface RootBlock {
  node: MdNode;
  base: number;
}

/** Start offset of a node in the whole source. */
export function nodeStart(block: { node: MdNode; base: number }): number {
  return block.base + (block.node.position?.start.offset ?? 0);
}

/** End offset of a node in the whole source. */
export function nodeEnd(block: { node: MdNode; base: number }): number {
  return block.base + (block.node.position?.end.offset ?? 0);
}

/** A fence opener: the indentation/container text before it, its marker, its info. */
export function fenceOpener(
  index: SourceIndex,
  start: number,
): { prefix: string; marker: string; info: string } | undefined {
  const line = index.lineOf(start);
  const m = /^([ \t]*)(`{3,}|~{3,})(.*)$/.exec(index.text.slice(start, index.lineEnd(line)));
  if (m === null) return undefined;
  return {
    prefix: index.text.slice(index.lineStart(line), start) + m[1],
    marker: m[2]!,
    info: m[3]!.trimEnd(),
  };
}

/** The last line that holds part of a node ending at `end` after line `first`. */
export function lastLineOf(index: SourceIndex, first: number, end: number): number {
  let last = index.lineOf(end);
  while (last > first && index.lineStart(last) >= end) last--;
  return last;
}

/** Whether a fence's last line closes it (same marker character, at least as long). */
export function fenceClosed(
  index: SourceIndex,
  fence: { marker: string; openerLine: number; lastLine: number; end: number },
): boolean {
  if (fence.lastLine <= fence.openerLine) return false;
  const m = /^[ \t>]*([`~]{3,})[ \t]*$/.exec(
    index.text.slice(index.lineStart(fence.lastLine), fence.end),
  );
  return m !== null && m[1]![0] === fence.marker[0] && m[1]!.length >= fence.marker.length;
}

/**
 * Parses the whole source and returns its top-level blocks in order.
 *
 * Section boundaries are found first; each section is parsed alone, and a
 * section whose last block is an open top-level fence or HTML block grows to
 * the line that closes it.
 */
export function parseBlocks(index: SourceIndex): RootBlock[] {
  const boundaries = sectionBoundaries(index);
  const out: RootBlock[] = [];
  let next = 0;
  let segStart = 0;
  while (segStart < index.text.length) {
    while (next < boundaries.length && index.lineStart(boundaries[next]!) <= segStart) next++;
    let b = next;
    while (b < boundaries.length && index.lineStart(boundaries[b]!) - segStart < UNIT) b++;
    let segEnd = b < boundaries.length ? index.lineStart(boundaries[b]!) : index.text.length;
    for (;;) {
      const children = parseSlice(index.text, segStart, segEnd);
      const last = children.at(-1);
      const closeLine = last === undefined ? -1 : openConstructEnd(index, last);
      if (closeLine < 0 || segEnd >= index.text.length) {
        out.push(...children);
        break;
      }
      out.push(...children.slice(0, -1));
      segStart = index.lineStart(index.lineOf(nodeStart(last!)));
      while (b < boundaries.length && boundaries[b]! <= closeLine) b++;
      segEnd = b < boundaries.length ? index.lineStart(boundaries[b]!) : index.text.length;
    }
    segStart = segEnd;
  }
  return out;
}

function parseSlice(text: string, start: number, end: number): RootBlock[] {
  const tree = fromMarkdown(text.slice(start, end), PARSE_OPTIONS) as MdNode;
  return (tree.children ?? []).map((node) => ({ node, base: start }));
}

/** Lines that start at column 0 with a non-blank character right after a blank line. */
function sectionBoundaries(index: SourceIndex): number[] {
  const out: number[] = [];
  const text = index.text;
  for (let l = 1; l < index.lineCount; l++) {
    if (!index.blank(l - 1) || index.blank(l)) continue;
    const c = text.charCodeAt(index.lineStart(l));
    if (c !== 32 && c !== 9) out.push(l);
  }
  return out;
}

/** HTML blocks of kinds 1–5 run across blank lines until their end condition. */
const HTML_OPEN: readonly [RegExp, RegExp][] = [
  [/^ {0,3}<(?:script|pre|style|textarea)(?=[\s>]|$)/i, /<\/(?:script|pre|style|textarea)>/i],
  [/^ {0,3}<!--/, /-->/],
  [/^ {0,3}<\?/, /\?>/],
  [/^ {0,3}<![a-z]/i, />/],
  [/^ {0,3}<!\[CDATA\[/, /\]\]>/],
];

/**
 * If a top-level block is still open at the end of its section, the line that
 * closes it (or the last line); otherwise -1.
 */
function openConstructEnd(index: SourceIndex, block: RootBlock): number {
  const start = nodeStart(block);
  const end = nodeEnd(block);
  const first = index.lineOf(start);
  const lastLine = lastLineOf(index, first, end);
  if (block.node.type === "code") {
    const opener = fenceOpener(index, start);
    if (opener === undefined) return -1;
    if (fenceClosed(index, { marker: opener.marker, openerLine: first, lastLine, end })) return -1;
    const closer = new RegExp(`^ {0,3}${opener.marker[0]}{${opener.marker.length},}[ \\t]*$`);
    return findLine(index, lastLine + 1, (line) => closer.test(line));
  }
  if (block.node.type === "html") {
    const line = index.text.slice(index.lineStart(first), index.lineEnd(first));
    const kind = HTML_OPEN.find(([open]) => open.test(line));
    if (kind === undefined) return -1;
    const body = index.text.slice(start, end);
    const opened = kind[0].exec(body.replace(/^[ \t]*/, ""));
    const after = opened === null ? body : body.slice(opened[0].length);
    if (kind[1].test(after)) return -1;
    return findLine(index, lastLine + 1, (text) => kind[1].test(text));
  }
  return -1;
}

function findLine(index: SourceIndex, from: number, test: (line: string) => boolean): number {
  for (let l = from; l < index.lineCount; l++) {
    if (test(index.text.slice(index.lineStart(l), index.lineEnd(l)))) return l;
  }
  return index.lineCount - 1;
}
