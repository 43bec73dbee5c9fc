/**
 * Native presence: `OK` on every admitted message, one `Typing` per chat
 * while work is pending (kept in the store so a restart clears stale ones),
 * removed at the agent's first response; `THUMBSUP` after a fully delivered
 * reply. Every reaction goes through the account's outbox at presence
 * priority (after the chat's answers and card updates); the `OK` and `Typing`
 * of an admitted message are once-only writes keyed by its message id, so a
 * replay after a crash never adds a second one. A Typing's key is freed when
 * that Typing is removed (by an answer, or as stale at start), so a message
 * replayed after a restart shows Typing again. The `OK` never holds up the
 * message it marks (the agent is woken while it waits its turn in the lane);
 * one a previous run began but never saw answered is finished at start. All
 * best-effort: failures are logged, never surfaced.
 *
 * Near the month's API quota (the account says it is `saving`), no Typing is
 * started: it costs two calls (add and remove) and says only "working". The
 * `OK` stays (one call, and the only sign a message arrived) and so does the
 * `THUMBSUP`, which follows an answer the agent chose to send.
 * @module
 */

import type { Account } from "../account/mod.ts";
import type { Logger } from "../core/mod.ts";
import { PRIORITY } from "../outbound/mod.ts";
import type { TypingEntry, TypingStore } from "../store/mod.ts";

/** The emoji types used automatically. */
const PRESENCE = { seen: "OK", typing: "Typing", done: "THUMBSUP" } as const;

/** The once-only key prefix of a message's `OK`. */
export const SEEN_PREFIX = "seen:";

/** What presence needs. */
interface PresenceDeps {
  account: Pick<Account, "alias" | "outbox">;
  typing: TypingStore;
  log: Logger;
  /** True while calls are being saved near the quota: no Typing then. */
  saving?: () => boolean;
}

/** A message presence acts on: its chat (the outbox lane) and Feishu id. */
interface PresenceTarget {
  chatId: string;
  messageId: string;
}

async function quietly(
  deps: PresenceDeps,
  what: string,
  target: PresenceTarget,
  fn: () => Promise<unknown>,
) {
  try {
    await fn();
  } catch (err) {
    deps.log.debug(`${what} failed`, { message: target.messageId, error: (err as Error).message });
  }
}

/** Adds `OK` to an admitted message, once per message whatever the replays. */
export function markSeen(deps: PresenceDeps, target: PresenceTarget): Promise<void> {
  return quietly(deps, "seen reaction", target, () =>
    deps.account.outbox.react({
      ...target,
      emojiType: PRESENCE.seen,
      priority: PRIORITY.presence,
      once: `${SEEN_PREFIX}${target.messageId}`,
    }));
}

/**
 * Starts Typing on a message unless the chat already has one, or calls are
 * being saved near the quota. The entry is stored only when Feishu returned
 * a reaction id.
 */
export function startTyping(
  deps: PresenceDeps,
  entry: PresenceTarget & { receiveId: string; receiveIdType: string },
): Promise<void> {
  const alias = deps.account.alias;
  if (deps.saving?.()) return Promise.resolve();
  if (deps.typing.get(alias, entry.chatId)) return Promise.resolve();
  return quietly(deps, "typing reaction", entry, async () => {
    const reactionId = await deps.account.outbox.react({
      chatId: entry.chatId,
      messageId: entry.messageId,
      emojiType: PRESENCE.typing,
      priority: PRIORITY.presence,
      once: typingKey(entry.messageId),
    });
    if (!deps.typing.put({ ...entry, account: alias, reactionId })) {
      // Another message of the chat won the race: drop our extra reaction.
      await remove(deps, { chatId: entry.chatId, messageId: entry.messageId, reactionId });
    }
  });
}

/** Removes the chat's Typing, if any; true when there was one. */
export async function stopTyping(deps: PresenceDeps, chatId: string): Promise<boolean> {
  const e = deps.typing.take(deps.account.alias, chatId);
  if (!e) return false;
  await remove(deps, e);
  return true;
}

/** Removes every Typing of the account whose receive target matches (sends to an open_id). */
export async function stopTypingByTarget(
  deps: PresenceDeps,
  receiveId: string,
  receiveIdType: string,
): Promise<void> {
  for (const e of deps.typing.takeByTarget(deps.account.alias, receiveId, receiveIdType)) {
    await remove(deps, e);
  }
}

/** Removes every Typing of the account (shutdown, and stale ones at start). */
export async function clearTyping(deps: PresenceDeps): Promise<number> {
  const all = deps.typing.takeAll(deps.account.alias);
  // Every removal starts now, so a message replayed next shows a fresh Typing.
  await Promise.all(all.map((e) => remove(deps, e)));
  return all.length;
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

/** Adds `THUMBSUP` to a reply target. */
export function markDone(deps: PresenceDeps, target: PresenceTarget): Promise<void> {
  return quietly(deps, "done reaction", target, () =>
    deps.account.outbox.react({
      ...target,
      emojiType: PRESENCE.done,
      priority: PRIORITY.presence,
    }));
}

/** The once-only key of a message's Typing; freed when that Typing is removed. */
const typingKey = (messageId: string) => `typing:${messageId}`;

function remove(
  deps: PresenceDeps,
  e: Pick<TypingEntry, "chatId" | "messageId" | "reactionId">,
): Promise<void> {
  return quietly(deps, "typing removal", e, () =>
    deps.account.outbox.unreact({
      chatId: e.chatId,
      messageId: e.messageId,
      reactionId: e.reactionId,
      priority: PRIORITY.presence,
      // Gone now: a replay of this message's job after a restart shows Typing again.
      once: typingKey(e.messageId),
    }));
}
