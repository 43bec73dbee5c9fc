/**
 * Chunking of outbound text and markdown into Feishu-sized messages. The
 * markdown chunker works on the block structure a real CommonMark/GFM parser
 * gives (fences, tables, lists, headings, quotes) and keeps Feishu `<at>` tags
 * whole; the text chunker cuts at the last newline that fits. Both are pure.
 *
 * Sits between content normalisation and materialisation in the outbound flow.
 * @module
 */

export {
  type ChunkOptions,
  DEFAULT_CHUNK_LIMIT,
  type Degradation,
  type SplitResult,
} from "./types.ts";
export { splitMarkdown } from "./split_markdown.ts";
export { splitText } from "./split_text.ts";
export { assertMarkdownNesting, MAX_MARKDOWN_NESTING } from "./nesting.ts";
