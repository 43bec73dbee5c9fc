/**
 * The plain-text chunker ("newline" mode): a chunk ends at the last
 * newline that keeps it within the limit (the newline is dropped), else is cut
 * inside the line. Two refinements: an inside-line cut lands on a grapheme
 * boundary when one is near (emoji ZWJ sequences stay whole), and a cut never
 * exceeds the limit, even to keep an `<at>` tag longer than a chunk whole
 * (that is reported as a degradation). Whitespace-only chunks are dropped.
 * @module
 */

import { findAtTags, tagAround } from "./_at_tags.ts";
import { positiveInteger } from "./_check.ts";
import { hardCut } from "./_hard_cut.ts";
import { SourceIndex } from "./_source.ts";
import type { Chunk, ChunkOptions, Degradation, SplitResult } from "./types.ts";

/**
 * Splits plain text into chunks of at most `limit` code points, with offsets
 * and degradations.
 *
 * @example Cut at the last newline that fits
 * ```ts
 * import { splitText } from "./split_text.ts";
 * const r = splitText("aaa\nbbb\nccc", { limit: 8 });
 * if (r.chunks.map((c) => c.text).join("|") !== "aaa\nbbb|ccc") throw new Error();
 * ```
 */
export function splitText(text: string, options: Pick<ChunkOptions, "limit">): SplitResult {
  const limit = positiveInteger("limit", options.limit);
  if (text.trim() === "") return { chunks: [], degradations: [] };
  const index = new SourceIndex(text);
  if (index.cpCount <= limit) return { chunks: [piece(text, 0, text.length)], degradations: [] };
  const tags = findAtTags(text);
  const chunks: Chunk[] = [];
  const degradations: Degradation[] = [];
  const splitTags = new Set<number>();
  const push = (start: number, end: number) => {
    let e = end;
    if (e > start && text.charCodeAt(e - 1) === 13) e--;
    if (text.slice(start, e).trim() !== "") chunks.push(piece(text, start, e));
  };
  let i = 0;
  while (i < text.length) {
    const windowEnd = index.endForBudget(i, limit);
    if (windowEnd >= text.length) {
      push(i, text.length);
      break;
    }
    const nl = text.lastIndexOf("\n", windowEnd);
    if (nl > i) {
      const tag = tagAround(tags, nl);
      if (tag === undefined) {
        push(i, nl);
        i = nl + 1;
        continue;
      }
      if (tag[0] > i) {
        push(i, tag[0]);
        i = tag[0];
        continue;
      }
    }
    const cut = hardCut(index, { start: i, end: windowEnd, tags }, { preferSpace: false });
    if (cut.splitTag !== undefined && !splitTags.has(cut.splitTag[0])) {
      splitTags.add(cut.splitTag[0]);
      degradations.push({
        kind: "at_tag_split",
        detail:
          `The mention tag at character ${index.cpLength(0, cut.splitTag[0]) + 1} is longer than ` +
          `the chunk limit of ${limit}; it was cut`,
      });
    }
    push(i, cut.cut);
    i = cut.cut;
  }
  return { chunks, degradations };
}

/**
 * Splits plain text into chunk texts (see {@link splitText}).
 *
 * @example Text within the limit is one chunk
 * ```ts
 * import { chunkText } from "./split_text.ts";
 * if (chunkText("hello", { limit: 3500 }).length !== 1) throw new Error();
 * ```
 */
export function chunkText(text: string, options: Pick<ChunkOptions, "limit">): string[] {
  return splitText(text, options).chunks.map((c) => c.text);
}

function piece(text: string, start: number, end: number): Chunk {
  return { text: text.slice(start, end), start, end, prefix: "", suffix: "", uncounted: 0 };
}
