/**
 * How chats are listed and named on the page.
 * @module
 */

import type { PageChat, PageState } from "./types.ts";

/**
 * The label and subtitle of a chat in the list and the header: a DM is
 * named after the bot.
 *
 * @example
 * ```ts
 * import { chatLabel } from "./chats.ts";
 * const state = {
 *   app: { app_id: "cli_1", bot_open_id: "ou_bot", bot_name: "EmuBot" },
 *   users: [{ open_id: "ou_a", name: "Alice" }],
 *   chats: [],
 * };
 * const dm = { chat_id: "oc_1", name: "", chat_mode: "p2p", members: ["ou_a"], bot_member: true };
 * const l = chatLabel(dm, state);
 * if (l.name !== "EmuBot" || l.sub !== "Direct message · Alice") throw new Error(JSON.stringify(l));
 * ```
 */
export function chatLabel(chat: PageChat, state: PageState): { name: string; sub: string } {
  if (chat.chat_mode === "p2p") {
    const users = chat.members.map((id) => state.users.find((u) => u.open_id === id)?.name ?? id);
    return { name: state.app.bot_name, sub: `Direct message · ${users.join(", ")}` };
  }
  const kind = chat.chat_mode === "topic" ? "Topic group" : "Group";
  const sub = `${kind} · ${chat.members.length} members${chat.dissolved ? " · dissolved" : ""}`;
  return { name: chat.name || chat.chat_id, sub };
}

/**
 * The chats the viewer is a member of: DMs first, then groups, then topic
 * groups.
 *
 * @example
 * ```ts
 * import { chatsOf } from "./chats.ts";
 * const chat = (chat_id: string, chat_mode: string, members: string[]) =>
 *   ({ chat_id, name: chat_id, chat_mode, members, bot_member: true });
 * const state = {
 *   app: { app_id: "cli_1", bot_open_id: "ou_bot", bot_name: "EmuBot" },
 *   users: [],
 *   chats: [chat("t", "topic", ["a"]), chat("g", "group", ["a"]), chat("d", "p2p", ["a"]), chat("x", "p2p", ["b"])],
 * };
 * if (chatsOf(state, "a").map((c) => c.chat_id).join() !== "d,g,t") throw new Error();
 * ```
 */
export function chatsOf(state: PageState, viewer: string): PageChat[] {
  const rank = (c: PageChat) => c.chat_mode === "p2p" ? 0 : c.chat_mode === "group" ? 1 : 2;
  return state.chats.filter((c) => c.members.includes(viewer)).sort((a, b) => rank(a) - rank(b));
}
