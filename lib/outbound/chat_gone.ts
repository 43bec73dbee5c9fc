/**
 * Writes to a chat that is gone (dissolved, or the bot removed) are refused
 * before any request, with one error for every caller: the agent's actions,
 * presence reactions and Task Cards alike. Feishu's 230045 (the chat was
 * dissolved) marks the chat gone too, so the next write fails fast. Its
 * 230002 (the bot is not in the chat) does not: the bot may have been added
 * back, and only `bot.added_v1` lifts a mark, while a removal we saw marks
 * it from its own event.
 * @module
 */

import { BridgeError, isoSeconds } from "../core/mod.ts";
import type { GoneChat } from "../store/mod.ts";

/** Feishu's code for a write to a dissolved chat. */
export const CHAT_DISSOLVED_CODE = 230045;

/** What the outbox asks about a chat, and tells when Feishu says it was dissolved. */
export interface GoneChats {
  get(chatId: string): GoneChat | null;
  mark(chat: GoneChat): void;
}

/**
 * The refusal of a write to a gone chat: `TARGET_REVOKED`, not retryable,
 * naming the chat, why and when.
 *
 * @example
 * ```ts
 * import { chatGoneError } from "./chat_gone.ts";
 * const e = chatGoneError({ chatId: "oc_1", reason: "dissolved", at: Date.UTC(2026, 0, 2) });
 * if (e.code !== "TARGET_REVOKED" || e.retryable) throw new Error();
 * if (!e.message.startsWith("Chat 'oc_1' was dissolved on 2026-01-02T00:00:00Z")) throw new Error(e.message);
 * ```
 */
export function chatGoneError(chat: GoneChat): BridgeError {
  const how = chat.reason === "dissolved" ? "was dissolved" : "no longer has the bot (removed)";
  return new BridgeError(
    "TARGET_REVOKED",
    `Chat '${chat.chatId}' ${how} on ${isoSeconds(chat.at)}: nothing can be sent, replied, ` +
      "reacted or edited there (its history can still be read); adding the bot back lifts this",
    { retryable: false, context: { chatId: chat.chatId, operation: "chat_gone" } },
  );
}

/** True for {@link chatGoneError}'s refusals (no request was made). */
export function isChatGoneRefusal(err: unknown): boolean {
  return err instanceof BridgeError && err.context.operation === "chat_gone";
}

/**
 * Whether a failed write says its chat was dissolved.
 *
 * @example
 * ```ts
 * import { BridgeError } from "../core/mod.ts";
 * import { saysDissolved } from "./chat_gone.ts";
 * if (!saysDissolved(new BridgeError("TARGET_REVOKED", "x", { context: { providerCode: 230045 } }))) throw new Error();
 * if (saysDissolved(new BridgeError("TARGET_REVOKED", "x", { context: { providerCode: 230002 } }))) throw new Error();
 * ```
 */
export function saysDissolved(err: unknown): boolean {
  return err instanceof BridgeError && err.context.providerCode === CHAT_DISSOLVED_CODE;
}
