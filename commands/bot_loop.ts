/**
 * The note an owner gets when the loop guard begins holding other bots'
 * messages in a chat: which chat, and the cap that was reached.
 * @module
 */

import { fill } from "../cards/mod.ts";
import { card, type CardView } from "./card.ts";
import { safe } from "./read.ts";
import type { BotLoopView } from "./types.ts";

/** The owner's note: the chat (its name when known, and its id) and the cap. */
export function botLoopCard(m: CardView, view: BotLoopView): Record<string, unknown> {
  const id = /^oc_[A-Za-z0-9_-]{1,64}$/.test(view.chatId) ? `\`${view.chatId}\`` : "?";
  const name = view.chatName?.trim();
  const chat = name ? `${safe(Array.from(name).slice(0, 60).join(""))} (${id})` : id;
  const minutes = Math.round(view.windowSeconds / 6) / 10;
  return card(m, "bot_loop_title", fill(m.text.bot_loop, { chat, max: view.max, minutes }), []);
}
