/**
 * Native presence (spec §7): `OK` on every admitted message, one `Typing` per
 * chat while work is pending (kept in the store so a restart clears stale
 * ones), removed at the agent's first response; `THUMBSUP` after a fully
 * delivered reply. All best-effort: failures are logged, never surfaced.
 * @module
 */

import type { Logger } from "../core/mod.ts";
import type { FeishuApi } from "../feishu/mod.ts";
import type { TypingStore } from "../store/mod.ts";

/** The emoji types used automatically. */
export const PRESENCE = { seen: "OK", typing: "Typing", done: "THUMBSUP" } as const;

/** What presence needs. */
export interface PresenceDeps {
  api: FeishuApi;
  typing: TypingStore;
  log: Logger;
}

/** Adds `OK` to an admitted message. */
export async function markSeen(deps: PresenceDeps, messageId: string): Promise<void> {
  try {
    await deps.api.addReaction(messageId, PRESENCE.seen);
  } catch (err) {
    deps.log.debug("seen reaction failed", { message: messageId, error: (err as Error).message });
  }
}

/**
 * Starts Typing on a message unless the chat already has one. The entry is
 * stored only when Feishu returned a reaction id.
 */
export async function startTyping(
  deps: PresenceDeps,
  entry: {
    account: string;
    chatId: string;
    messageId: string;
    receiveId: string;
    receiveIdType: string;
  },
): Promise<void> {
  if (deps.typing.get(entry.account, entry.chatId)) return;
  try {
    const reactionId = await deps.api.addReaction(entry.messageId, PRESENCE.typing);
    if (!deps.typing.put({ ...entry, reactionId })) {
      // Another message of the chat won the race: drop our extra reaction.
      await removeQuietly(deps, entry.messageId, reactionId);
    }
  } catch (err) {
    deps.log.debug("typing reaction failed", {
      message: entry.messageId,
      error: (err as Error).message,
    });
  }
}

/** Removes the chat's Typing, if any; true when there was one. */
export async function stopTyping(
  deps: PresenceDeps,
  account: string,
  chatId: string,
): Promise<boolean> {
  const e = deps.typing.take(account, chatId);
  if (!e) return false;
  await removeQuietly(deps, e.messageId, e.reactionId);
  return true;
}

/** Removes every Typing of the account whose receive target matches (sends to an open_id). */
export async function stopTypingByTarget(
  deps: PresenceDeps,
  account: string,
  receiveId: string,
  receiveIdType: string,
): Promise<void> {
  for (const e of deps.typing.takeByTarget(account, receiveId, receiveIdType)) {
    await removeQuietly(deps, e.messageId, e.reactionId);
  }
}

/** Removes every Typing of the account (shutdown, and stale ones at start). */
export async function clearTyping(deps: PresenceDeps, account: string): Promise<number> {
  const all = deps.typing.takeAll(account);
  for (const e of all) await removeQuietly(deps, e.messageId, e.reactionId);
  return all.length;
}

/** Adds `THUMBSUP` to a reply target. */
export async function markDone(deps: PresenceDeps, messageId: string): Promise<void> {
  try {
    await deps.api.addReaction(messageId, PRESENCE.done);
  } catch (err) {
    deps.log.debug("done reaction failed", { message: messageId, error: (err as Error).message });
  }
}

async function removeQuietly(
  deps: PresenceDeps,
  messageId: string,
  reactionId: string,
): Promise<void> {
  try {
    await deps.api.removeReaction(messageId, reactionId);
  } catch (err) {
    deps.log.debug("typing removal failed", { message: messageId, error: (err as Error).message });
  }
}
