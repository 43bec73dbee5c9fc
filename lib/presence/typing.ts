/**
 * One `Typing` per chat, on its newest pending message (a newer message moves
 * it), driven by a worker per chat that brings Feishu to
 * the chat's wish one write at a time: remove the stored Typing when the
 * chat should show none (or one on another message), add the wished one when
 * none is stored. Nobody waits for it: a message is stored and an answer
 * returns while the worker's writes wait in the chat's lane, where they go
 * at update priority (after the answers, ahead of the `OK` backlog, so the
 * Typing goes right after the answer that ends it).
 *
 * A wish that has not gone out yet is replaced by a newer message's (counted
 * as shed), so a chat never queues Typing writes for messages already
 * superseded. The stored row is deleted only once Feishu confirmed the
 * removal: a crash or a failure in between leaves it, and a restart (or the
 * chat's next change) removes that Typing then. A rate-limited removal is
 * tried again; one whose reaction or message is gone is dropped.
 * @module
 */

import { BridgeError } from "../core/mod.ts";
import { PRIORITY } from "../outbound/mod.ts";
import type { TypingEntry } from "../store/mod.ts";
import {
  accountPresence,
  type ChatPresence,
  chatPresence,
  counted,
  type PresenceDeps,
  sweepChat,
  type TypingWish,
} from "./state.ts";

/** The emoji type of the Typing reaction. */
const TYPING = "Typing";

/** Attempts of one removal that Feishu answers with a rate limit. */
const REMOVAL_ATTEMPTS = 3;

/** The once-only key prefix of a message's Typing. */
export const TYPING_PREFIX = "typing:";

/** The once-only key of a message's Typing; freed when that Typing is removed. */
const typingKey = (messageId: string) => `${TYPING_PREFIX}${messageId}`;

/** The chat's wish, the stored row standing for it until someone asks. */
function wishOf(chat: ChatPresence, row: TypingEntry | null): { messageId: string } | null {
  return chat.wish === undefined ? row : chat.wish;
}

/**
 * Asks for the chat's Typing on `wish`'s message, the newest pending one: a
 * Typing shown on an earlier message moves there (removed, then added), and
 * a wish not sent yet is replaced.
 */
export function wishTyping(deps: PresenceDeps, wish: TypingWish): void {
  const chat = chatPresence(deps, wish.chatId);
  const row = deps.typing.get(deps.account.alias, wish.chatId);
  if (wishOf(chat, row)?.messageId === wish.messageId) return; // a replay of the same message
  // An earlier message's Typing that never went out: the newer one takes its place.
  const unsent = chat.wish && row?.messageId !== chat.wish.messageId &&
    chat.adding !== chat.wish.messageId;
  if (unsent) accountPresence(deps).shed++;
  chat.wish = wish;
  kick(deps, wish.chatId);
}

/** Asks for no Typing in the chat; true when there was one (shown or wished). */
export function unwishTyping(deps: PresenceDeps, chatId: string): boolean {
  const chat = chatPresence(deps, chatId);
  const had = wishOf(chat, deps.typing.get(deps.account.alias, chatId)) !== null;
  chat.wish = null;
  if (had) kick(deps, chatId);
  else sweepChat(deps, chatId);
  return had;
}

/**
 * Asks for no Typing in the chat if the one it shows (or wishes) is on
 * `messageId`; a Typing on another message stays. True when it was there.
 */
export function unwishTypingOn(deps: PresenceDeps, chatId: string, messageId: string): boolean {
  const chat = chatPresence(deps, chatId);
  if (wishOf(chat, deps.typing.get(deps.account.alias, chatId))?.messageId !== messageId) {
    sweepChat(deps, chatId);
    return false;
  }
  return unwishTyping(deps, chatId);
}

/**
 * Settles a Typing add a previous run began and never saw answered: it may be
 * on Feishu with nothing stored to remove it, so it is looked up (and, as
 * the once-only write finishes, added when missing) and then removed, unless
 * the chat wishes a Typing on that very message (a replay of its job).
 */
export function suspectTyping(deps: PresenceDeps, chatId: string, messageId: string): void {
  chatPresence(deps, chatId).suspects.push(messageId);
  kick(deps, chatId);
}

/** Resolves once the chat's worker (if any) has nothing left to do. */
export function typingSettled(deps: PresenceDeps, chatId: string): Promise<void> {
  return chatPresence(deps, chatId).worker;
}

function kick(deps: PresenceDeps, chatId: string): void {
  const chat = chatPresence(deps, chatId);
  if (chat.running) return;
  chat.running = true;
  chat.worker = work(deps, chatId, chat);
}

async function work(deps: PresenceDeps, chatId: string, chat: ChatPresence): Promise<void> {
  await Promise.resolve(); // let the caller (and kick) return first
  try {
    for (let step = nextStep(deps, chatId, chat); step; step = nextStep(deps, chatId, chat)) {
      if (!(await step())) break;
    }
  } finally {
    // Synchronous with the last check: a wish made after it starts a new worker.
    chat.running = false;
    sweepChat(deps, chatId);
  }
}

/** The one write that brings the chat closer to its wish, or null when it is there. */
function nextStep(
  deps: PresenceDeps,
  chatId: string,
  chat: ChatPresence,
): (() => Promise<boolean>) | null {
  const row = deps.typing.get(deps.account.alias, chatId);
  const wish = wishOf(chat, row);
  const suspect = chat.suspects.shift();
  if (suspect !== undefined) return () => settleSuspect(deps, chat, { chatId, messageId: suspect });
  if (row && row.messageId !== wish?.messageId) return () => removeStored(deps, row);
  if (!row && chat.wish) {
    const w = chat.wish;
    return () => add(deps, chat, w);
  }
  return null;
}

async function add(deps: PresenceDeps, chat: ChatPresence, wish: TypingWish): Promise<boolean> {
  const alias = deps.account.alias;
  chat.adding = wish.messageId;
  try {
    const reactionId = await counted(deps, () =>
      deps.account.outbox.react({
        chatId: wish.chatId,
        messageId: wish.messageId,
        emojiType: TYPING,
        priority: PRIORITY.update,
        once: typingKey(wish.messageId),
      }));
    if (!deps.typing.put({ ...wish, account: alias, reactionId })) {
      // Not ours to show (the row belongs to another writer): take our reaction back.
      await removeReaction(deps, { ...wish, reactionId });
    }
    return true;
  } catch (err) {
    deps.log.debug("typing reaction failed", {
      message: wish.messageId,
      error: (err as Error).message,
    });
    if (chat.wish === wish) chat.wish = null;
    return false;
  } finally {
    chat.adding = null;
  }
}

async function settleSuspect(
  deps: PresenceDeps,
  chat: ChatPresence,
  target: { chatId: string; messageId: string },
): Promise<boolean> {
  // The wished add finishes the same once-only write (looking it up first).
  if (chat.wish?.messageId === target.messageId) return true;
  try {
    const reactionId = await counted(deps, () =>
      deps.account.outbox.react({
        ...target,
        emojiType: TYPING,
        priority: PRIORITY.update,
        once: typingKey(target.messageId),
      }));
    const entry = { ...target, account: deps.account.alias, reactionId };
    // Stored first, so its removal (the worker's next step) is as reliable as any other;
    // a replay of its message's job, wishing it again, keeps it instead.
    if (deps.typing.put({ ...entry, receiveId: null, receiveIdType: null })) {
      chat.wish ??= null;
      return true;
    }
    return await removeReaction(deps, entry);
  } catch (err) {
    deps.log.debug("typing look-up failed", {
      message: target.messageId,
      error: (err as Error).message,
    });
    return true;
  }
}

/** Removes a stored Typing; its row goes only once Feishu confirmed (or the reaction is gone). */
async function removeStored(deps: PresenceDeps, row: TypingEntry): Promise<boolean> {
  const gone = await removeReaction(deps, row);
  if (gone) deps.typing.take(deps.account.alias, row.chatId);
  return gone;
}

/** True when the reaction is no longer on Feishu (removed now, or already gone). */
async function removeReaction(
  deps: PresenceDeps,
  e: Pick<TypingEntry, "chatId" | "messageId" | "reactionId">,
): Promise<boolean> {
  for (let attempt = 1;; attempt++) {
    try {
      await counted(deps, () =>
        deps.account.outbox.unreact({
          chatId: e.chatId,
          messageId: e.messageId,
          reactionId: e.reactionId,
          priority: PRIORITY.update,
          // Gone now: a replay of this message's job after a restart shows Typing again.
          once: typingKey(e.messageId),
        }));
      return true;
    } catch (err) {
      const limited = err instanceof BridgeError && err.code === "RATE_LIMITED";
      if (limited && attempt < REMOVAL_ATTEMPTS) continue; // the lane waits out the limit first
      // A refusal that would recur (the reaction or its message is gone) leaves nothing to remove.
      const gone = err instanceof BridgeError && !err.retryable;
      deps.log.warn("typing removal failed", {
        message: e.messageId,
        kept: !gone,
        error: (err as Error).message,
      });
      return gone;
    }
  }
}
