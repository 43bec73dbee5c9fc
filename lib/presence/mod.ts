/**
 * Native presence: `OK` on every admitted message, one `Typing` per chat
 * while work is pending (kept in the store so a restart clears stale ones),
 * removed at the agent's first response; `THUMBSUP` after a fully delivered
 * reply. Every reaction goes through the account's outbox, after the chat's
 * answers: the Typing's add and removal at update priority, the `OK` and
 * `THUMBSUP` at presence priority. The `OK` and `Typing` of an admitted
 * message are once-only writes keyed by its message id, so a replay after a
 * crash never adds a second one. A Typing's key is freed when that Typing is
 * removed (by an answer, or as stale at start), so a message replayed after a
 * restart shows Typing again. An `OK` a previous run began but never saw
 * answered is finished at start; a Typing add it never saw answered is looked
 * up and removed then (its message was stored without waiting for it).
 *
 * Presence never delays the important work: nothing here is awaited by the
 * pipeline or by an answer (a message is stored and the agent woken, a send
 * returns, while its presence writes wait their turn). The backlog is bounded
 * per chat: at most {@link SEEN_BACKLOG} `OK`s wait in the lane (one beyond is
 * skipped), and a Typing not sent yet is replaced by a newer message's; both
 * are counted as `shed`, beside the writes `queued` now ({@link presenceStatus}).
 * All best-effort: failures are logged, never surfaced; a Typing's row stays
 * until Feishu confirmed its removal (a Typing left behind is worse than a
 * missing `OK`).
 *
 * Near the month's API quota (the account says it is `saving`), no Typing is
 * started: it costs two calls (add and remove) and says only "working". The
 * `OK` stays (one call, and the only sign a message arrived) and so does the
 * `THUMBSUP`, which follows an answer the agent chose to send.
 * @module
 */

import type { Account } from "../account/mod.ts";
import { PRIORITY } from "../outbound/mod.ts";
import {
  accountPresence,
  chatPresence,
  type PresenceDeps,
  type PresenceTarget,
  quietly,
  SEEN_BACKLOG,
  sweepChat,
  type TypingWish,
} from "./state.ts";
import {
  suspectTyping,
  TYPING_PREFIX,
  typingSettled,
  unwishTyping,
  unwishTypingOn,
  wishTyping,
} from "./typing.ts";

export { TYPING_PREFIX } from "./typing.ts";

/** The emoji types used automatically. */
const PRESENCE = { seen: "OK", done: "THUMBSUP" } as const;

/** The once-only key prefix of a message's `OK`. */
export const SEEN_PREFIX = "seen:";

/**
 * Adds `OK` to an admitted message, once per message whatever the replays;
 * skipped (and counted) while the chat already has {@link SEEN_BACKLOG} waiting.
 */
export function markSeen(deps: PresenceDeps, target: PresenceTarget): Promise<void> {
  const key = `${SEEN_PREFIX}${target.messageId}`;
  const chat = chatPresence(deps, target.chatId);
  if (!chat.seen.has(key) && chat.seen.size >= SEEN_BACKLOG) {
    accountPresence(deps).shed++;
    return Promise.resolve();
  }
  chat.seen.add(key);
  return quietly(deps, "seen reaction", target, () =>
    deps.account.outbox.react({
      ...target,
      emojiType: PRESENCE.seen,
      priority: PRIORITY.presence,
      once: key,
    })).finally(() => {
      chat.seen.delete(key);
      sweepChat(deps, target.chatId);
    });
}

/**
 * Starts Typing on a message unless the chat already has one, or calls are
 * being saved near the quota. Returns at once; the entry is stored when
 * Feishu returned a reaction id.
 */
export function startTyping(deps: PresenceDeps, entry: TypingWish): void {
  if (deps.saving?.()) return;
  wishTyping(deps, entry);
}

/** Removes the chat's Typing, if any (returns at once); true when there was one. */
export function stopTyping(deps: PresenceDeps, chatId: string): boolean {
  return unwishTyping(deps, chatId);
}

/**
 * Removes the chat's Typing if it is on `messageId` (a recalled message); it
 * does not move back to an earlier message: that one's Typing moved off it
 * when the newer message came, and whether the agent still works on it is
 * not known (a turn may end without a message), while a Typing left behind
 * is worse than none. True when there was one.
 */
export function stopTypingOn(deps: PresenceDeps, chatId: string, messageId: string): boolean {
  return unwishTypingOn(deps, chatId, messageId);
}

/** Removes every Typing of the account whose receive target matches (sends to an open_id). */
export function stopTypingByTarget(
  deps: PresenceDeps,
  receiveId: string,
  receiveIdType: string,
): void {
  for (const e of deps.typing.all(deps.account.alias)) {
    if (e.receiveId === receiveId && e.receiveIdType === receiveIdType) {
      unwishTyping(deps, e.chatId);
    }
  }
}

/**
 * Removes every Typing of the account (shutdown, and stale ones at start);
 * resolves once Feishu answered each removal. Returns how many were stored.
 */
export async function clearTyping(deps: PresenceDeps): Promise<number> {
  const stored = deps.typing.all(deps.account.alias);
  const chats = new Set([...stored.map((e) => e.chatId), ...accountPresence(deps).chats.keys()]);
  // Every removal is asked for now, so a message replayed next shows a fresh Typing after it.
  for (const chat of chats) unwishTyping(deps, chat);
  await Promise.all([...chats].map((chat) => typingSettled(deps, chat)));
  return stored.length;
}

/**
 * Finishes the `OK` reactions a previous run began but never saw answered
 * (it stopped while they waited in the outbox): each is looked up on Feishu
 * and added only when missing. Returns how many were resumed.
 */
export async function resumeSeen(
  deps: PresenceDeps,
  pending: { keys: string[]; chatOf(messageId: string): string | null },
): Promise<number> {
  let n = 0;
  const all: Promise<void>[] = [];
  for (const key of pending.keys) {
    const messageId = key.slice(SEEN_PREFIX.length);
    const chatId = pending.chatOf(messageId);
    if (chatId === null) continue;
    all.push(markSeen(deps, { chatId, messageId }));
    n++;
  }
  await Promise.all(all);
  return n;
}

/**
 * Settles the Typing adds a previous run began but never saw answered (it
 * stopped while they waited in the outbox or on Feishu, after their messages
 * were stored): each is looked up on Feishu and removed. Returns how many.
 */
export function resumeTyping(
  deps: PresenceDeps,
  pending: { keys: string[]; chatOf(messageId: string): string | null },
): number {
  let n = 0;
  for (const key of pending.keys) {
    const messageId = key.slice(TYPING_PREFIX.length);
    const chatId = pending.chatOf(messageId);
    if (chatId === null) continue;
    suspectTyping(deps, chatId, messageId);
    n++;
  }
  return n;
}

/** Adds `THUMBSUP` to a reply target (returns the write; nobody needs to wait for it). */
export function markDone(deps: PresenceDeps, target: PresenceTarget): Promise<void> {
  return quietly(deps, "done reaction", target, () =>
    deps.account.outbox.react({
      ...target,
      emojiType: PRESENCE.done,
      priority: PRIORITY.presence,
    }));
}

/** The account's presence backlog for the status: writes waiting now, and writes skipped. */
export function presenceStatus(account: Pick<Account, "alias" | "outbox">): {
  queued: number;
  shed: number;
} {
  const { queued, shed } = accountPresence({ account });
  return { queued, shed };
}
