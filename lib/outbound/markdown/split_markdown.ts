/**
 * The markdown chunker: it cuts along the blocks a CommonMark/GFM parser
 * finds and never makes a chunk longer than the limit (the fence markers of a
 * code block closed and reopened across a cut are not counted).
 *
 * Rules, in order of preference, for where a chunk ends:
 * 1. Between top-level blocks (a heading starts a new chunk once the current
 *    one is 75 % full).
 * 2. Inside a block at a line boundary: after a blank line, then at a list
 *    item, then any line, then between table rows (the next chunk repeats the
 *    header and delimiter rows), then inside a fenced code block (the chunk
 *    closes the fence, the next reopens it with the same marker and info
 *    string). Never between a table's header row and its delimiter row.
 *    A boundary is taken from the best class found in the back half of the
 *    window; failing that, the furthest boundary in the front half; a cut
 *    that would leave an empty code block or a header-only table comes last.
 * 3. Only when one line alone is too long: inside the line, after a space if
 *    one is in the back half, else at a grapheme boundary, else at a code
 *    point boundary; never inside an `<at>` tag that fits in a chunk.
 *
 * Tables: at most `maxTablesPerChunk` per chunk (a forced cut before the
 * next); a table larger than a chunk is split by rows with its header
 * repeated; a table wider than `maxTableColumns` is reported. Every such
 * compromise is returned as a degradation.
 * @module
 */

import { positiveInteger } from "./_check.ts";
import { SourceIndex } from "./_source.ts";
import { Splitter } from "./_splitter.ts";
import { analyse } from "./_structure.ts";
import {
  type Chunk,
  type ChunkOptions,
  DEFAULT_MAX_TABLE_COLUMNS,
  DEFAULT_MAX_TABLES_PER_CHUNK,
  type Degradation,
  type SplitResult,
} from "./types.ts";

/**
 * Splits markdown into chunks of at most `limit` code points of content,
 * returning where each came from and every degradation.
 *
 * @example A short document stays whole
 * ```ts
 * import { splitMarkdown } from "./split_markdown.ts";
 * const r = splitMarkdown("# Hi\n\nthere", { limit: 3500 });
 * if (r.chunks.length !== 1 || r.chunks[0]!.text !== "# Hi\n\nthere") throw new Error();
 * ```
 */
export function splitMarkdown(md: string, options: ChunkOptions): SplitResult {
  const limit = positiveInteger("limit", options.limit);
  const maxTables = positiveInteger(
    "maxTablesPerChunk",
    options.maxTablesPerChunk ?? DEFAULT_MAX_TABLES_PER_CHUNK,
  );
  const maxColumns = positiveInteger(
    "maxTableColumns",
    options.maxTableColumns ?? DEFAULT_MAX_TABLE_COLUMNS,
  );
  if (md.trim() === "") return { chunks: [], degradations: [] };
  const index = new SourceIndex(md);
  const whole = { chunks: [wholeChunk(md)], degradations: [] };
  if (index.cpCount <= limit && !md.includes("|")) return whole;
  const structure = analyse(index);
  const wide = structure.tables
    .filter((t) => t.columns > maxColumns)
    .map((t): Degradation => ({
      kind: "table_wide",
      detail: `The table at line ${t.startLine + 1} has ${t.columns} columns, more than ` +
        `${maxColumns}; Feishu may not render it well`,
    }));
  if (index.cpCount <= limit && structure.tables.length <= maxTables) {
    return { chunks: whole.chunks, degradations: wide };
  }
  const result = new Splitter(index, structure, { limit, maxTables }).run();
  return { chunks: result.chunks, degradations: [...wide, ...result.degradations] };
}

/**
 * Splits markdown into chunk texts; see {@link splitMarkdown} for the rules
 * and for the degradations this shorthand drops.
 *
 * @example Short input stays whole
 * ```ts
 * import { chunkMarkdown } from "./split_markdown.ts";
 * const chunks = chunkMarkdown("hi", { limit: 3500 });
 * if (chunks.length !== 1 || chunks[0] !== "hi") throw new Error();
 * ```
 */
export function chunkMarkdown(md: string, options: ChunkOptions): string[] {
  return splitMarkdown(md, options).chunks.map((c) => c.text);
}

function wholeChunk(text: string): Chunk {
  return { text, start: 0, end: text.length, prefix: "", suffix: "", uncounted: 0 };
}
