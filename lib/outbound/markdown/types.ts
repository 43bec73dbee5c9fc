/**
 * Shapes shared by the chunkers: options, chunks with their source offsets, and
 * degradations (anything the chunker had to do that a reader would notice).
 * @module
 */

/**
 * Code points of content per chunk. Synthetic fence markers may add to it; every
 * wire body still stays inside Feishu's byte limits.
 */
export const DEFAULT_CHUNK_LIMIT = 3500;

/** At most this many tables go into one markdown chunk (a forced cut before the next). */
export const DEFAULT_MAX_TABLES_PER_CHUNK = 5;

/** Tables wider than this many columns are reported as likely to render badly. */
export const DEFAULT_MAX_TABLE_COLUMNS = 10;

/** Options of the chunkers. */
export interface ChunkOptions {
  /** Code points of content per chunk; an integer ≥ 1. */
  limit: number;
  /** Markdown only: tables per chunk before a forced cut (default 5). */
  maxTablesPerChunk?: number;
  /** Markdown only: columns above which a table is reported as too wide (default 10). */
  maxTableColumns?: number;
}

/** What kind of visible compromise the chunker made. */
export type DegradationKind =
  | "table_split"
  | "table_count"
  | "table_wide"
  | "line_split"
  | "at_tag_split";

/** One visible compromise, with a sentence an agent can act on. */
export interface Degradation {
  kind: DegradationKind;
  detail: string;
}

/**
 * One chunk: `text` is what goes on the wire. It equals
 * `prefix + source.slice(start, end) + suffix`; `prefix` and `suffix` are
 * synthetic (a reopened or closed code fence, a repeated table header), and
 * `uncounted` is how many of their code points do not count toward the limit
 * (fence markers only: a closed and reopened fence may take a chunk past the
 * limit).
 */
export interface Chunk {
  text: string;
  start: number;
  end: number;
  prefix: string;
  suffix: string;
  uncounted: number;
}

/** Chunks in order plus every degradation, so an action can report them. */
export interface SplitResult {
  chunks: Chunk[];
  degradations: Degradation[];
}
