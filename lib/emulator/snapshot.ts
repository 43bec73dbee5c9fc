/**
 * A world as plain JSON and back, for an emulator whose world outlives its
 * process (the sandbox keeps it beside the bridge's state, so the page shows
 * earlier runs and the bridge's history matches the emulator's). Kept: apps,
 * users, chats, messages, reactions, uploads (their bytes apart: the caller
 * stores them by key), send uuids, card tokens and card results. Left out:
 * issued tenant tokens (a new process asks for new ones), the long
 * connection's sessions and event records, the request log. Pure.
 * @module
 */

import { createDefaultWorld } from "./fixtures.ts";
import type {
  App,
  CardResult,
  CardToken,
  Chat,
  Reaction,
  StoredMessage,
  Upload,
  User,
  World,
} from "./world.ts";

/** The snapshot format's version; {@linkcode restoreWorld} refuses any other. */
export const SNAPSHOT_VERSION = 1;

/** A world as JSON-ready data (upload bytes excluded). */
export interface WorldSnapshot {
  version: typeof SNAPSHOT_VERSION;
  apps: App[];
  users: User[];
  chats: (Omit<Chat, "bots"> & { bots: string[] })[];
  messages: StoredMessage[];
  reactions: Reaction[];
  uploads: Omit<Upload, "bytes">[];
  uuids: [string, { messageId: string; at: number }][];
  cardResults: CardResult[];
  cardTokens: CardToken[];
}

/** The world as a snapshot; `JSON.stringify` of it is the saved form. */
export function snapshotWorld(world: World): WorldSnapshot {
  return {
    version: SNAPSHOT_VERSION,
    apps: [...world.apps.values()],
    users: [...world.users.values()],
    chats: [...world.chats.values()].map((c) => ({ ...c, bots: [...c.bots] })),
    messages: [...world.messages.values()],
    reactions: [...world.reactions.values()],
    uploads: [...world.uploads.values()].map(({ bytes: _bytes, ...meta }) => meta),
    uuids: [...world.uuids.entries()],
    cardResults: [...world.cardResults],
    cardTokens: [...world.cardTokens.values()],
  };
}

/**
 * Builds a world from a parsed snapshot, over `base` (default: a new default
 * world, so fixtures a newer emulator adds are there too; the snapshot's apps,
 * users and chats replace those with the same id). `bytesOf(key)` hands back
 * an upload's bytes; an upload without them is left out. Throws an `Error`
 * saying what is wrong when `data` is no snapshot of this version.
 *
 * @example
 * ```ts
 * import { restoreWorld, snapshotWorld } from "./snapshot.ts";
 * import { createDefaultWorld, DEFAULT_IDS } from "./fixtures.ts";
 * const w = createDefaultWorld();
 * w.addMessage({
 *   messageId: "om_1", chatId: DEFAULT_IDS.aliceP2p, sender: { type: "user", id: DEFAULT_IDS.alice.openId },
 *   msgType: "text", content: '{"text":"hi"}', createTime: 1, updateTime: 1,
 *   deleted: false, updated: false, editCount: 0, resources: [], mentions: [],
 * });
 * const back = restoreWorld(JSON.parse(JSON.stringify(snapshotWorld(w))), () => undefined);
 * const next = back.addMessage({ ...back.messages.get("om_1")!, messageId: "om_2" });
 * if (back.messagesOf(DEFAULT_IDS.aliceP2p).length !== 2 || next.seq !== 2) throw new Error();
 * ```
 */
export function restoreWorld(
  data: unknown,
  bytesOf: (key: string) => Uint8Array | undefined,
  base: World = createDefaultWorld(),
): World {
  const s = checked(data);
  for (const app of s.apps) base.addApp(app);
  for (const user of s.users) base.addUser(user);
  for (const chat of s.chats) base.addChat({ ...chat, bots: new Set(chat.bots) });
  for (const message of s.messages) base.restoreMessage(message);
  for (const reaction of s.reactions) base.reactions.set(reaction.reactionId, reaction);
  for (const meta of s.uploads) {
    const bytes = bytesOf(meta.key);
    if (bytes) base.uploads.set(meta.key, { ...meta, bytes });
  }
  for (const [key, value] of s.uuids) base.uuids.set(key, value);
  base.cardResults.push(...s.cardResults);
  for (const token of s.cardTokens) base.cardTokens.set(token.token, token);
  return base;
}

const LISTS = [
  "apps",
  "users",
  "chats",
  "messages",
  "reactions",
  "uploads",
  "uuids",
  "cardResults",
  "cardTokens",
] as const;

/** The snapshot, after the checks that keep a damaged file from breaking the emulator later. */
function checked(data: unknown): WorldSnapshot {
  if (typeof data !== "object" || data === null) {
    throw new Error("Expected a world snapshot object but found " + typeof data);
  }
  const s = data as Record<string, unknown>;
  if (s.version !== SNAPSHOT_VERSION) {
    throw new Error(
      `Expected world snapshot version ${SNAPSHOT_VERSION} but found ${JSON.stringify(s.version)}`,
    );
  }
  for (const list of LISTS) {
    if (!Array.isArray(s[list])) throw new Error(`Expected '${list}' to be a list`);
  }
  const ids = (list: string, key: string) => {
    for (const item of s[list] as unknown[]) {
      const id = (item as Record<string, unknown> | null)?.[key];
      if (typeof id !== "string" || id === "") {
        throw new Error(`Expected every entry of '${list}' to have a '${key}'`);
      }
    }
  };
  ids("apps", "appId");
  ids("users", "openId");
  ids("chats", "chatId");
  ids("messages", "messageId");
  ids("messages", "chatId");
  ids("reactions", "reactionId");
  ids("uploads", "key");
  ids("cardTokens", "token");
  for (const c of s.chats as { members?: unknown; bots?: unknown }[]) {
    if (!Array.isArray(c.members) || !Array.isArray(c.bots)) {
      throw new Error("Expected every chat to list its members and bots");
    }
  }
  for (const m of s.messages as Record<string, unknown>[]) {
    if (
      typeof m.seq !== "number" || typeof m.content !== "string" ||
      !Array.isArray(m.resources) || !Array.isArray(m.mentions)
    ) {
      throw new Error(
        "Expected every message to have a seq, a content string, resources, mentions",
      );
    }
  }
  return data as WorldSnapshot;
}
