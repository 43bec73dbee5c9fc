/**
 * The default world: one app with its bot "EmuBot", users Alice and Bob, a
 * p2p chat per user with the bot, a group "Team" and a topic group "Topics".
 * Tests and the sandbox import {@linkcode DEFAULT_IDS} to address them.
 * @module
 */

import { type App, type Chat, type User, World } from "./world.ts";

/** The tenant key every default record carries. */
export const TENANT_KEY = "emu0tenant0key01";

/** Ids of the default world. */
export const DEFAULT_IDS = {
  appId: "cli_a1b2c3d4e5f6a7b8",
  appSecret: "emulator-secret",
  botOpenId: "ou_emu_bot",
  botUnionId: "on_emu_bot",
  botName: "EmuBot",
  tenantKey: TENANT_KEY,
  alice: {
    openId: "ou_emu_alice",
    unionId: "on_emu_alice",
    userId: "emu_alice",
    name: "Alice",
    email: "alice@emu.example",
  },
  bob: {
    openId: "ou_emu_bob",
    unionId: "on_emu_bob",
    userId: "emu_bob",
    name: "Bob",
    email: "bob@emu.example",
  },
  aliceP2p: "oc_emu_p2p_alice",
  bobP2p: "oc_emu_p2p_bob",
  team: "oc_emu_team",
  topics: "oc_emu_topics",
} as const;

/**
 * The scopes the default app requests, all granted unless a test withholds
 * some (`faults.setScopes`): what a messaging bot with media, reactions,
 * sender names and chat info asks for, by Feishu's scope names.
 */
export const DEFAULT_SCOPES: readonly string[] = Object.freeze([
  "im:message",
  "im:message:send_as_bot",
  "im:message.p2p_msg:readonly",
  "im:message.group_at_msg:readonly",
  "im:resource",
  "im:message.reactions:read",
  "im:message.reactions:write_only",
  "contact:user.base:readonly",
  "im:chat:readonly",
]);

/**
 * Builds a user record from the default-world shape.
 *
 * @example
 * ```ts
 * import { makeUser } from "./fixtures.ts";
 * const u = makeUser({ openId: "ou_x", unionId: "on_x", userId: "x", name: "X", email: "x@e" });
 * if (!u.available || u.enName !== "X") throw new Error();
 * ```
 */
export function makeUser(
  u: { openId: string; unionId: string; userId: string; name: string; email: string },
): User {
  return { ...u, enName: u.name, available: true };
}

/**
 * Builds a chat record.
 *
 * @example
 * ```ts
 * import { makeChat } from "./fixtures.ts";
 * const c = makeChat({ chatId: "oc_1", name: "T", mode: "group", members: ["ou_a"], bots: ["cli_x"] });
 * if (!c.bots.has("cli_x") || c.ownerOpenId !== "ou_a") throw new Error();
 * ```
 */
export function makeChat(
  c: { chatId: string; name: string; mode: Chat["mode"]; members: string[]; bots: string[] },
): Chat {
  return {
    chatId: c.chatId,
    name: c.name,
    mode: c.mode,
    description: "",
    ownerOpenId: c.members[0] ?? "",
    members: [...c.members],
    bots: new Set(c.bots),
  };
}

/**
 * Creates the default world described in the module doc.
 *
 * @example
 * ```ts
 * import { createDefaultWorld, DEFAULT_IDS } from "./fixtures.ts";
 * const w = createDefaultWorld();
 * if (w.chats.get(DEFAULT_IDS.topics)?.mode !== "topic") throw new Error();
 * if (w.p2pChat(DEFAULT_IDS.appId, DEFAULT_IDS.bob.openId)?.chatId !== DEFAULT_IDS.bobP2p) throw new Error();
 * ```
 */
export function createDefaultWorld(): World {
  const w = new World();
  const d = DEFAULT_IDS;
  const app: App = {
    appId: d.appId,
    appSecret: d.appSecret,
    botOpenId: d.botOpenId,
    botUnionId: d.botUnionId,
    botName: d.botName,
    tenantKey: d.tenantKey,
  };
  w.addApp(app);
  w.addUser(makeUser(d.alice));
  w.addUser(makeUser(d.bob));
  const both = [d.alice.openId, d.bob.openId];
  for (const [chatId, user] of [[d.aliceP2p, d.alice], [d.bobP2p, d.bob]] as const) {
    w.addChat(makeChat({ chatId, name: "", mode: "p2p", members: [user.openId], bots: [d.appId] }));
  }
  w.addChat(
    makeChat({ chatId: d.team, name: "Team", mode: "group", members: both, bots: [d.appId] }),
  );
  w.addChat(makeChat({
    chatId: d.topics,
    name: "Topics",
    mode: "topic",
    members: both,
    bots: [d.appId],
  }));
  return w;
}
