/**
 * What presence remembers of one account while it runs: per chat, the `OK`
 * writes waiting in the outbox (bounded: see {@link SEEN_BACKLOG}) and the
 * Typing the chat should show; per account, the presence writes waiting now
 * (`queued`) and those skipped to keep the backlog short (`shed`). Memory
 * only: the durable parts (the once-only ledger, the Typing rows) live in the
 * store.
 * @module
 */

import type { Account } from "../account/mod.ts";
import type { Logger } from "../core/mod.ts";
import type { TypingStore } from "../store/mod.ts";

/**
 * The `OK` writes one chat may have waiting in the outbox (2 s of its lane at
 * Feishu's 5 writes per second); an `OK` beyond it is skipped and counted.
 */
export const SEEN_BACKLOG = 10;

/** What presence needs. */
export interface PresenceDeps {
  account: Pick<Account, "alias" | "outbox">;
  typing: TypingStore;
  log: Logger;
  /** True while calls are being saved near the quota: no Typing then. */
  saving?: () => boolean;
}

/** A message presence acts on: its chat (the outbox lane) and Feishu id. */
export interface PresenceTarget {
  chatId: string;
  messageId: string;
}

/** The Typing a chat should show: on which message, and whom it answers. */
export interface TypingWish extends PresenceTarget {
  receiveId: string;
  receiveIdType: string;
}

/** One chat's presence. */
export interface ChatPresence {
  /** Once-only keys of the `OK` writes waiting or under way. */
  seen: Set<string>;
  /**
   * The Typing the chat should show: a wish, null for none, undefined while
   * nothing asked (the stored row, if any, stands).
   */
  wish: TypingWish | null | undefined;
  /** Messages whose Typing a previous run began adding and never saw answered. */
  suspects: string[];
  /** The message whose Typing is being added right now, if any. */
  adding: string | null;
  /** Whether the chat's Typing worker runs, and its promise (for shutdown). */
  running: boolean;
  worker: Promise<void>;
}

/** One account's presence. */
export interface AccountPresence {
  chats: Map<string, ChatPresence>;
  /** Presence writes handed to the outbox and not answered yet. */
  queued: number;
  /** Presence writes skipped: OKs over the backlog, Typing superseded before it went out. */
  shed: number;
}

const accounts = new WeakMap<object, AccountPresence>();

/** The presence of the account `deps` names (one per account object). */
export function accountPresence(deps: Pick<PresenceDeps, "account">): AccountPresence {
  let state = accounts.get(deps.account);
  if (!state) accounts.set(deps.account, state = { chats: new Map(), queued: 0, shed: 0 });
  return state;
}

/** One chat's presence, made on first use. */
export function chatPresence(deps: Pick<PresenceDeps, "account">, chatId: string): ChatPresence {
  const chats = accountPresence(deps).chats;
  let chat = chats.get(chatId);
  if (!chat) {
    chat = {
      seen: new Set(),
      wish: undefined,
      suspects: [],
      adding: null,
      running: false,
      worker: Promise.resolve(),
    };
    chats.set(chatId, chat);
  }
  return chat;
}

/**
 * Forgets a chat with nothing waiting and nothing to remember (memory stays
 * bounded by busy chats): a chat that wishes no Typing while one is stored
 * (its removal failed) is kept, so the stored one is not taken for wished.
 */
export function sweepChat(deps: Pick<PresenceDeps, "account" | "typing">, chatId: string): void {
  const chats = accountPresence(deps).chats;
  const chat = chats.get(chatId);
  if (!chat || chat.seen.size > 0 || chat.suspects.length > 0 || chat.running) return;
  const forgettable = chat.wish === undefined ||
    (chat.wish === null && deps.typing.get(deps.account.alias, chatId) === null);
  if (forgettable) chats.delete(chatId);
}

/** Runs one presence write, counted in `queued` until it is answered. */
export async function counted<T>(deps: PresenceDeps, fn: () => Promise<T>): Promise<T> {
  const state = accountPresence(deps);
  state.queued++;
  try {
    return await fn();
  } finally {
    state.queued--;
  }
}

/** {@link counted}, best effort: a failure is logged, never surfaced. */
export async function quietly(
  deps: PresenceDeps,
  what: string,
  target: PresenceTarget,
  fn: () => Promise<unknown>,
): Promise<void> {
  try {
    await counted(deps, fn);
  } catch (err) {
    deps.log.debug(`${what} failed`, { message: target.messageId, error: (err as Error).message });
  }
}
