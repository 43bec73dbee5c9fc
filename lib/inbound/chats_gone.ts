/**
 * Chats that go away: `im.chat.disbanded_v1` (dissolved) and
 * `im.chat.member.bot.deleted_v1` (the bot removed) mark the chat gone in the
 * store, whoever did it (admission decides only whether the event is
 * recorded in `events`): from then on every write there is refused before
 * any request (lib/outbound/chat_gone.ts), its Task Card bindings are
 * dropped without touching the cards, and its Typing is asked away (the
 * outbox refuses the removal unsent, which settles its row). Writes already
 * queued for it are refused at their turn. `im.chat.member.bot.added_v1`
 * lifts the mark.
 * @module
 */

import type { Account } from "../account/mod.ts";
import type { Clock, Logger } from "../core/mod.ts";
import type { RawEnvelope } from "../feishu/mod.ts";
import { stopTyping } from "../presence/mod.ts";
import type { GoneReason, Store } from "../store/mod.ts";
import { asNumber, asObject, asText } from "./normalise/_json.ts";

/** What an event says about a chat's fate, if anything. */
export type ChatFate =
  | { chatId: string; gone: true; reason: GoneReason; atMs: number | null }
  | { chatId: string; gone: false };

const GONE: Record<string, GoneReason> = {
  "im.chat.disbanded_v1": "dissolved",
  "im.chat.member.bot.deleted_v1": "bot_removed",
};
const BACK = "im.chat.member.bot.added_v1";

/**
 * The chat fate an envelope tells, or null.
 *
 * @example
 * ```ts
 * import { chatFate } from "./chats_gone.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(chatFate({ header: { event_type: "im.chat.disbanded_v1", create_time: "1700000000000" },
 *   event: { chat_id: "oc_1" } }), { chatId: "oc_1", gone: true, reason: "dissolved", atMs: 1700000000000 });
 * assert.deepEqual(chatFate({ header: { event_type: "im.chat.member.bot.added_v1" }, event: { chat_id: "oc_1" } }),
 *   { chatId: "oc_1", gone: false });
 * assert.equal(chatFate({ header: { event_type: "im.message.receive_v1" }, event: {} }), null);
 * ```
 */
export function chatFate(envelope: RawEnvelope): ChatFate | null {
  const type = asText(asObject(envelope.header)?.event_type) ?? "";
  const chatId = asText(asObject(envelope.event)?.chat_id);
  if (!chatId) return null;
  if (type === BACK) return { chatId, gone: false };
  const reason = GONE[type];
  if (!reason) return null;
  return {
    chatId,
    gone: true,
    reason,
    atMs: asNumber(asObject(envelope.header)?.create_time) ?? null,
  };
}

/** Applies what an event tells of its chat (idempotent). */
export function applyChatFate(
  deps: { store: Store; clock: Clock; log: Logger },
  account: Account,
  envelope: RawEnvelope,
): void {
  const fate = chatFate(envelope);
  if (!fate) return;
  const { store, log } = deps;
  const alias = account.alias;
  if (!fate.gone) {
    if (store.goneChats.lift(alias, fate.chatId)) {
      log.info("the bot is back in a chat; writes there are allowed again", {
        account: alias,
        chat: fate.chatId,
      });
    }
    return;
  }
  store.goneChats.mark(alias, {
    chatId: fate.chatId,
    reason: fate.reason,
    at: fate.atMs ?? deps.clock.now(),
  });
  const cards = store.taskCards.deleteChat(alias, fate.chatId);
  stopTyping({ account, typing: store.typing, log }, fate.chatId);
  log.info("a chat is gone; writes there are refused from now on", {
    account: alias,
    chat: fate.chatId,
    reason: fate.reason,
    task_cards_dropped: cards,
  });
}
