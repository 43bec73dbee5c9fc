/**
 * Pure renderers of the emulator's web chat page: control-plane data in,
 * escaped HTML out. The same modules run in Deno (unit tests) and, bundled,
 * in the browser.
 * @module
 */

export { escapeHtml } from "./_html.ts";
export { messagePreview } from "./message.ts";
export { chatLabel, chatsOf } from "./chats.ts";
export { chatControlsHtml, chatNotice, dissolveQuestion } from "./chat_controls.ts";
export { extractBotMention } from "./compose.ts";
export { layoutTimeline } from "./timeline.ts";
export { renderEntry } from "./bubble.ts";
export { toastParts } from "./toast.ts";
export {
  contextFor,
  type PageChat,
  type PageMessage,
  type PageState,
  type PageToast,
} from "./types.ts";
