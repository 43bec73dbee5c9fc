/**
 * Pure renderers of the emulator's web chat page: control-plane data in,
 * escaped HTML out. The same modules run in Deno (unit tests) and, bundled,
 * in the browser.
 * @module
 */

export { escapeHtml, resourceUrl, safeHref } from "./_html.ts";
export { type MarkdownOptions, renderMarkdown } from "./markdown.ts";
export { postPreview, renderPost } from "./post.ts";
export { cardPreview, renderCard } from "./card.ts";
export { messagePreview, renderBody, renderText } from "./message.ts";
export { chatLabel, chatsOf } from "./chats.ts";
export { extractBotMention } from "./compose.ts";
export { emojiGlyph, PICKER_EMOJIS } from "./emoji.ts";
export { layoutTimeline, type TimelineEntry } from "./timeline.ts";
export { type BubbleOptions, renderBubble, renderEntry, toastHtml } from "./bubble.ts";
export {
  contextFor,
  type PageChat,
  type PageMention,
  type PageMessage,
  type PageReaction,
  type PageState,
  type PageToast,
  type PageUser,
  type RenderContext,
} from "./types.ts";
