/**
 * Chunking of outbound text and markdown into Feishu-sized messages. The
 * markdown chunker works on the block structure a real CommonMark/GFM parser
 * gives (fences, tables, lists, headings, quotes) and keeps Feishu `<at>` tags
 * whole; the text chunker follows the spec's "newline" mode. Both are pure.
 *
 * Sits between content normalisation and materialisation in the outbound flow.
 * @module
 */

export * from "./types.ts";
export { chunkMarkdown, splitMarkdown } from "./split_markdown.ts";
export { chunkText, splitText } from "./split_text.ts";
export { assertMarkdownNesting, markdownNesting, MAX_MARKDOWN_NESTING } from "./nesting.ts";
