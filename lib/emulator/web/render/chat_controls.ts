/**
 * The chat header's moderation controls and the notice under the header: a
 * group's members can remove or re-add the bot, its owner can dissolve it; a
 * dissolved group and a chat without the bot say so. The buttons carry
 * `data-control` for the page script.
 * @module
 */

import { escapeHtml } from "./_html.ts";
import type { PageChat, PageState } from "./types.ts";

/** What the notice under the header says, and whether the composer still works. */
export interface ChatNotice {
  kind: "dissolved" | "no-bot";
  text: string;
  /** False when nobody can post any more. */
  canSend: boolean;
}

/**
 * The notice for a chat, or undefined when there is nothing to say. A
 * dissolved group wins over the missing bot (dissolving removes it too).
 *
 * @example
 * ```ts
 * import { chatNotice } from "./chat_controls.ts";
 * const state = { app: { app_id: "cli", bot_open_id: "ou_b", bot_name: "EmuBot" }, users: [], chats: [] };
 * const team = { chat_id: "oc", name: "Team", chat_mode: "group", members: [], bot_member: false };
 * if (!chatNotice(team, state)?.text.startsWith("EmuBot is not in this group")) throw new Error();
 * const gone = chatNotice({ ...team, dissolved: true }, state);
 * if (gone?.text !== "This group was dissolved" || gone.canSend) throw new Error();
 * if (chatNotice({ ...team, bot_member: true }, state) !== undefined) throw new Error();
 * ```
 */
export function chatNotice(chat: PageChat, state: PageState): ChatNotice | undefined {
  if (chat.dissolved) {
    return { kind: "dissolved", text: "This group was dissolved", canSend: false };
  }
  if (chat.bot_member) return undefined;
  const where = chat.chat_mode === "p2p" ? "chat" : "group";
  return {
    kind: "no-bot",
    text: `${state.app.bot_name} is not in this ${where}: ` +
      "messages are stored but no event reaches the bot.",
    canSend: true,
  };
}

/**
 * The header buttons for a chat as `viewer` sees it: "Remove bot" or "Add
 * bot" for a group's members, "Dissolve group" for its owner; nothing in a
 * DM or a dissolved group.
 *
 * @example
 * ```ts
 * import { chatControlsHtml } from "./chat_controls.ts";
 * const state = { app: { app_id: "cli", bot_open_id: "ou_b", bot_name: "EmuBot" }, users: [], chats: [] };
 * const team = {
 *   chat_id: "oc", name: "Team", chat_mode: "group", members: ["ou_a", "ou_c"], bot_member: true,
 *   owner_id: "ou_a",
 * };
 * const owner = chatControlsHtml(team, state, "ou_a");
 * if (!owner.includes('data-control="bot-remove"') || !owner.includes("Dissolve group")) throw new Error(owner);
 * if (chatControlsHtml(team, state, "ou_c").includes("Dissolve")) throw new Error();
 * if (chatControlsHtml({ ...team, chat_mode: "p2p" }, state, "ou_a") !== "") throw new Error();
 * ```
 */
export function chatControlsHtml(chat: PageChat, state: PageState, viewer: string): string {
  if (chat.chat_mode === "p2p" || chat.dissolved || !chat.members.includes(viewer)) return "";
  const bot = escapeHtml(state.app.bot_name);
  const toggle = chat.bot_member
    ? `<button type="button" class="chat-control" data-control="bot-remove"` +
      ` title="Remove ${bot} from this group">Remove bot</button>`
    : `<button type="button" class="chat-control" data-control="bot-add"` +
      ` title="Add ${bot} to this group">Add bot</button>`;
  const dissolve = chat.owner_id === viewer
    ? `<button type="button" class="chat-control danger" data-control="dissolve"` +
      ` title="Dissolve this group for everyone">Dissolve group</button>`
    : "";
  return toggle + dissolve;
}

/**
 * The question the page asks before dissolving a group.
 *
 * @example
 * ```ts
 * import { dissolveQuestion } from "./chat_controls.ts";
 * const q = dissolveQuestion({ chat_id: "oc", name: "Team", chat_mode: "group", members: [], bot_member: true });
 * if (!q.startsWith('Dissolve "Team"?')) throw new Error(q);
 * ```
 */
export function dissolveQuestion(chat: PageChat): string {
  return `Dissolve "${chat.name || chat.chat_id}"? Every member loses the group and its ` +
    "history; this cannot be undone.";
}
