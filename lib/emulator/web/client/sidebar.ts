/// <reference lib="dom" />
/**
 * The left column: who the page acts as, and that user's chats.
 * @module
 */

import { chatLabel, chatsOf, escapeHtml, type PageState } from "../render/mod.ts";

/** Fills the user select and the chat list. */
export function renderSidebar(
  state: PageState,
  o: { viewer: string; chatId: string; select: HTMLSelectElement; list: HTMLElement },
): void {
  o.select.innerHTML = state.users.map((u) =>
    `<option value="${escapeHtml(u.open_id)}"${u.open_id === o.viewer ? " selected" : ""}>${
      escapeHtml(u.name)
    }</option>`
  ).join("");
  o.list.innerHTML = chatsOf(state, o.viewer).map((c) => {
    const { name, sub } = chatLabel(c, state);
    const icon = c.chat_mode === "p2p" ? "🤖" : c.chat_mode === "topic" ? "#" : "👥";
    return `<button type="button" class="chat-item${c.chat_id === o.chatId ? " active" : ""}"` +
      ` data-chat-id="${escapeHtml(c.chat_id)}" data-chat-mode="${escapeHtml(c.chat_mode)}">` +
      `<span class="chat-icon">${icon}</span><span class="chat-text"><span class="chat-name">${
        escapeHtml(name)
      }</span><span class="chat-sub">${escapeHtml(sub)}</span></span></button>`;
  }).join("");
}
