/**
 * Turns the parser's blocks into what the chunker asks per line: may a chunk
 * start here, how good a cut is it, and does the cut fall inside a fenced code
 * block (close and reopen the fence) or a table (repeat the header row).
 * @module
 */

import {
  fenceClosed,
  fenceOpener,
  lastLineOf,
  type MdNode,
  nodeEnd,
  nodeStart,
  parseBlocks,
} from "./_sections.ts";
import type { SourceIndex } from "./_source.ts";

/** Flags describing a cut made right before a line. */
export const LINE = {
  /** The line starts a top-level block. */
  blockStart: 1,
  /** That top-level block is a heading. */
  heading: 2,
  /** A list item starts on the line. */
  listItem: 4,
  /** The line is inside a fenced code block (after its opener). */
  fence: 8,
  /** The line is a table body row. */
  table: 16,
  /** A poor cut: it would leave an empty code block or a header-only table. */
  edge: 32,
  /** Never cut here (between a table's header row and its delimiter row). */
  forbidden: 64,
} as const;

/** A fenced code block, with the exact text that closes and reopens it. */
export interface Fence {
  openerLine: number;
  lastLine: number;
  /** The opener line as written, minus container markers: marker and info string. */
  reopen: string;
  /** The closing fence: the same marker, same indentation. */
  close: string;
}

/** A GFM table, with the header rows a continuation repeats. */
export interface Table {
  /** Offset of the table's first character. */
  start: number;
  startLine: number;
  delimiterLine: number;
  lastLine: number;
  /** Header row and delimiter row, as written (container markers blanked). */
  header: string;
  columns: number;
}

/** Per-line cut facts of one markdown source. */
export interface Structure {
  flags: Uint8Array;
  fenceOfLine: Int32Array;
  fences: Fence[];
  tableOfLine: Int32Array;
  tables: Table[];
}

/** Blanks container markers (`- `, `1. `) so repeated text does not start a new item. */
function containerPrefix(index: SourceIndex, line: number, start: number): string {
  return index.text.slice(index.lineStart(line), start).replace(/[^>\s]/g, " ");
}

/** Parses `index.text` and records the cut facts of every line. */
export function analyse(index: SourceIndex): Structure {
  const s: Structure = {
    flags: new Uint8Array(index.lineCount),
    fenceOfLine: new Int32Array(index.lineCount).fill(-1),
    fences: [],
    tableOfLine: new Int32Array(index.lineCount).fill(-1),
    tables: [],
  };
  for (const block of parseBlocks(index)) {
    const line = index.lineOf(nodeStart(block));
    s.flags[line]! |= LINE.blockStart;
    if (block.node.type === "heading") s.flags[line]! |= LINE.heading;
    const stack: MdNode[] = [block.node];
    while (stack.length > 0) {
      const node = stack.pop()!;
      const at = { node, base: block.base };
      if (node.type === "code") addFence(index, s, at);
      else if (node.type === "table") addTable(index, s, at);
      else if (node.type === "listItem") s.flags[index.lineOf(nodeStart(at))]! |= LINE.listItem;
      else if (node.type === "heading") markInside(index, s, at);
      for (const child of node.children ?? []) stack.push(child);
    }
  }
  return s;
}

function addFence(index: SourceIndex, s: Structure, at: { node: MdNode; base: number }): void {
  const start = nodeStart(at);
  const end = nodeEnd(at);
  const opener = fenceOpener(index, start);
  if (opener === undefined) return;
  const openerLine = index.lineOf(start);
  const lastLine = lastLineOf(index, openerLine, end);
  const closed = fenceClosed(index, { marker: opener.marker, openerLine, lastLine, end });
  const prefix = opener.prefix.replace(/[^>\s]/g, " ");
  const id = s.fences.length;
  s.fences.push({
    openerLine,
    lastLine,
    reopen: prefix + opener.marker + opener.info,
    close: prefix + opener.marker,
  });
  for (let l = openerLine + 1; l <= lastLine; l++) {
    s.fenceOfLine[l] = id;
    s.flags[l]! |= LINE.fence;
  }
  if (openerLine + 1 <= lastLine) s.flags[openerLine + 1]! |= LINE.edge;
  if (closed) s.flags[lastLine]! |= LINE.edge;
}

function addTable(index: SourceIndex, s: Structure, at: { node: MdNode; base: number }): void {
  const start = nodeStart(at);
  const startLine = index.lineOf(start);
  const delimiterLine = startLine + 1;
  const lastLine = lastLineOf(index, startLine, nodeEnd(at));
  if (delimiterLine >= index.lineCount) return;
  const id = s.tables.length;
  s.tables.push({
    start,
    startLine,
    delimiterLine,
    lastLine,
    header: containerPrefix(index, startLine, start) +
      index.text.slice(start, index.lineEnd(delimiterLine)),
    columns: at.node.children?.[0]?.children?.length ?? 0,
  });
  s.flags[delimiterLine]! |= LINE.forbidden;
  for (let l = delimiterLine + 1; l <= lastLine; l++) {
    s.tableOfLine[l] = id;
    s.flags[l]! |= LINE.table;
  }
  if (delimiterLine + 1 <= lastLine) s.flags[delimiterLine + 1]! |= LINE.edge;
}

/** A setext heading spans lines; a cut inside it would unmake the heading. */
function markInside(index: SourceIndex, s: Structure, at: { node: MdNode; base: number }): void {
  const first = index.lineOf(nodeStart(at));
  const last = lastLineOf(index, first, nodeEnd(at));
  for (let l = first + 1; l <= last; l++) s.flags[l]! |= LINE.edge;
}
