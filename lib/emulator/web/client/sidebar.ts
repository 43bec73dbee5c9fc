/// <reference lib="dom" />
/**
 * The left column: who the page acts as, and that user's chats.
 * @module
 */

import { escapeHtml, type PageChat, type PageState } from "../render/mod.ts";

/** The label and subtitle of a chat in the list and the header. */
export function chatLabel(chat: PageChat, state: PageState): { name: string; sub: string } {
  if (chat.chat_mode === "p2p") {
    const users = chat.members.map((id) => state.users.find((u) => u.open_id === id)?.name ?? id);
    return { name: state.app.bot_name, sub: `Direct message · ${users.join(", ")}` };
  }
  const kind = chat.chat_mode === "topic" ? "Topic group" : "Group";
  return { name: chat.name || chat.chat_id, sub: `${kind} · ${chat.members.length} members` };
}

/** The chats the viewer is a member of: DMs first, then groups, then topic groups. */
export function chatsOf(state: PageState, viewer: string): PageChat[] {
  const rank = (c: PageChat) => c.chat_mode === "p2p" ? 0 : c.chat_mode === "group" ? 1 : 2;
  return state.chats.filter((c) => c.members.includes(viewer)).sort((a, b) => rank(a) - rank(b));
}

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
