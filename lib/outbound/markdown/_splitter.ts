/**
 * The chunking loop of the markdown chunker: windows, cut classes, fence and
 * table continuations, degradations. The rules are documented on
 * `splitMarkdown` in `split_markdown.ts`.
 * @module
 */

import { codePointLength } from "../../core/mod.ts";
import { findAtTags, tagAround, type TagRange } from "./_at_tags.ts";
import { hardCut } from "./_hard_cut.ts";
import type { SourceIndex } from "./_source.ts";
import { LINE, type Structure, type Table } from "./_structure.ts";
import type { Chunk, Degradation, SplitResult } from "./types.ts";

/** Where one chunk ends and the next begins, with the synthetic text around the cut. */
interface Cut {
  end: number;
  next: number;
  suffix: string;
  suffixUncounted: number;
  nextPrefix: string;
  nextUncounted: number;
  table?: number;
}

/** Cut classes, best first (see the module doc). */
const TIER = {
  headingBlock: 0,
  block: 1,
  afterBlank: 2,
  listItem: 3,
  line: 4,
  tableRow: 5,
  fenceLine: 6,
  edge: 7,
} as const;

/** Splits one analysed markdown source; single use. */
export class Splitter {
  readonly #ix: SourceIndex;
  readonly #st: Structure;
  readonly #limit: number;
  readonly #maxTables: number;
  readonly #tags: readonly TagRange[];
  readonly #tablesByStart: Table[];
  readonly #chunks: Chunk[] = [];
  readonly #degradations: Degradation[] = [];
  readonly #tableParts = new Map<number, number>();
  readonly #splitLines = new Set<number>();
  readonly #splitTags = new Set<number>();
  #tableCursor = 0;

  constructor(ix: SourceIndex, st: Structure, o: { limit: number; maxTables: number }) {
    this.#ix = ix;
    this.#st = st;
    this.#limit = o.limit;
    this.#maxTables = o.maxTables;
    this.#tags = findAtTags(ix.text);
    this.#tablesByStart = [...st.tables].sort((a, b) => a.start - b.start);
  }

  run(): SplitResult {
    const ix = this.#ix;
    let first = 0;
    while (ix.blank(first)) first++;
    let last = ix.lineCount - 1;
    while (ix.blank(last)) last--;
    const docEnd = ix.lineEnd(last);
    let start = ix.lineStart(first);
    let prefix = "";
    let counted = 0;
    let uncounted = 0;
    for (;;) {
      const budget = this.#limit - counted;
      const budgetEnd = ix.endForBudget(start, budget);
      const cap = this.#tableCap(start);
      const windowEnd = Math.min(budgetEnd, cap.end);
      if (docEnd <= windowEnd) {
        this.#emit({ start, end: docEnd, prefix, suffix: "", uncounted });
        break;
      }
      const cut = this.#lineCut(start, windowEnd, budget) ?? this.#hardCut(start, windowEnd);
      this.#emit({
        start,
        end: cut.end,
        prefix,
        suffix: cut.suffix,
        uncounted: uncounted + cut.suffixUncounted,
      });
      if (cap.table !== undefined && cap.end < budgetEnd && cut.next >= cap.table.start) {
        this.#degradations.push({
          kind: "table_count",
          detail: `Chunk ${this.#chunks.length} stops before the table at line ` +
            `${cap.table.startLine + 1}: at most ${this.#maxTables} tables go in one message`,
        });
      }
      if (cut.table !== undefined) {
        this.#tableParts.set(cut.table, (this.#tableParts.get(cut.table) ?? 1) + 1);
      }
      start = cut.next;
      prefix = cut.nextPrefix;
      uncounted = cut.nextUncounted;
      counted = codePointLength(prefix) - uncounted;
    }
    this.#reportTables();
    return { chunks: this.#chunks, degradations: this.#degradations };
  }

  #emit(c: { start: number; end: number; prefix: string; suffix: string; uncounted: number }) {
    const text = c.prefix + this.#ix.text.slice(c.start, c.end) + c.suffix;
    this.#chunks.push({ ...c, text });
  }

  /** The end of the window imposed by the table cap: before the (max+1)-th table. */
  #tableCap(start: number): { end: number; table?: Table } {
    const ix = this.#ix;
    const ts = this.#tablesByStart;
    while (
      this.#tableCursor < ts.length && ix.lineEnd(ts[this.#tableCursor]!.lastLine) <= start
    ) this.#tableCursor++;
    const table = ts[this.#tableCursor + this.#maxTables];
    if (table === undefined) return { end: Infinity };
    return { end: ix.lineEnd(ix.prevNonBlank(table.startLine)), table };
  }

  #tier(line: number, fill: number): number {
    const f = this.#st.flags[line]!;
    if (f & LINE.fence) return f & LINE.edge ? TIER.edge : TIER.fenceLine;
    if (f & LINE.table) return f & LINE.edge ? TIER.edge : TIER.tableRow;
    if (f & LINE.edge) return TIER.edge;
    if (f & LINE.blockStart) {
      return f & LINE.heading && fill >= 0.75 ? TIER.headingBlock : TIER.block;
    }
    if (this.#ix.prevNonBlank(line) !== line - 1) return TIER.afterBlank;
    if (f & LINE.listItem) return TIER.listItem;
    return TIER.line;
  }

  /** The best line boundary for a chunk starting at `start`, or undefined if none fits. */
  #lineCut(start: number, windowEnd: number, budget: number): Cut | undefined {
    const ix = this.#ix;
    const startLine = ix.lineOf(start);
    let line = ix.lineOf(windowEnd) + 1;
    while (line < ix.lineCount && ix.blank(line)) line++;
    if (line >= ix.lineCount) line = ix.lineCount - 1;
    const best: (number | undefined)[] = [];
    let below: number | undefined;
    let edge: number | undefined;
    for (; line > startLine; line--) {
      if (ix.blank(line)) continue;
      const endLine = ix.prevNonBlank(line);
      const end = ix.lineEnd(endLine);
      if (end > windowEnd) continue;
      if (end <= start) break;
      if (endLine === startLine && ix.text.slice(start, end).trim() === "") break;
      if (this.#st.flags[line]! & LINE.forbidden) continue;
      if (tagAround(this.#tags, end) || tagAround(this.#tags, ix.lineStart(line))) continue;
      const fill = ix.cpLength(start, end) / budget;
      const tier = this.#tier(line, fill);
      if (tier === TIER.edge) edge ??= line;
      else if (fill >= 0.5) best[tier] ??= line;
      else {
        below = line;
        break;
      }
    }
    const chosen = best.find((l) => l !== undefined) ?? below ?? edge;
    return chosen === undefined ? undefined : this.#cutBefore(chosen);
  }

  #cutBefore(line: number): Cut {
    const ix = this.#ix;
    const cut: Cut = {
      end: ix.lineEnd(ix.prevNonBlank(line)),
      next: ix.lineStart(line),
      suffix: "",
      suffixUncounted: 0,
      nextPrefix: "",
      nextUncounted: 0,
    };
    const fence = this.#st.fences[this.#st.fenceOfLine[line]!];
    if (fence !== undefined) return this.#withFence(cut, fence);
    const id = this.#st.tableOfLine[line]!;
    const table = this.#st.tables[id];
    if (table === undefined) return cut;
    cut.table = id;
    const header = table.header + "\n";
    if (codePointLength(header) <= this.#limit / 2) cut.nextPrefix = header;
    return cut;
  }

  #withFence(cut: Cut, fence: { reopen: string; close: string }): Cut {
    cut.suffix = "\n" + fence.close;
    cut.suffixUncounted = codePointLength(cut.suffix);
    cut.nextPrefix = fence.reopen + "\n";
    cut.nextUncounted = codePointLength(cut.nextPrefix);
    return cut;
  }

  #hardCut(start: number, windowEnd: number): Cut {
    const ix = this.#ix;
    const { cut: at, splitTag } = hardCut(ix, { start, end: windowEnd, tags: this.#tags }, {
      preferSpace: true,
    });
    const line = ix.lineOf(at);
    if (!this.#splitLines.has(line)) {
      this.#splitLines.add(line);
      this.#degradations.push({
        kind: "line_split",
        detail: `Line ${line + 1} is longer than the chunk limit of ${this.#limit} ` +
          `characters; it continues in the next message`,
      });
    }
    if (splitTag !== undefined && !this.#splitTags.has(splitTag[0])) {
      this.#splitTags.add(splitTag[0]);
      this.#degradations.push({
        kind: "at_tag_split",
        detail: `The mention tag on line ${line + 1} is longer than the chunk limit; it was cut`,
      });
    }
    const cut: Cut = {
      end: at,
      next: at,
      suffix: "",
      suffixUncounted: 0,
      nextPrefix: "",
      nextUncounted: 0,
    };
    const fence = this.#st.fences[this.#st.fenceOfLine[line]!];
    return fence === undefined ? cut : this.#withFence(cut, fence);
  }

  #reportTables(): void {
    for (const [id, parts] of this.#tableParts) {
      const t = this.#st.tables[id]!;
      const repeated = codePointLength(t.header + "\n") <= this.#limit / 2;
      this.#degradations.push({
        kind: "table_split",
        detail: `The table at line ${t.startLine + 1} was split by rows across ${parts} ` +
          `messages; ${
            repeated
              ? "its header row is repeated at the top of each part"
              : "its header row is too long to repeat"
          }`,
      });
    }
  }
}
