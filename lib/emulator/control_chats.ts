/**
 * The control plane's chat moderation, what the web page's recall button and
 * chat header menu call: a user recalls a message, a member adds or removes
 * the bot, the owner dissolves a group. Each runs the scripted action (so the
 * bot gets the event Feishu would push) after the checks Feishu's client
 * makes. Documented in README.md.
 * @module
 */

import { dissolve, recall, setBotInChat } from "./actions.ts";
import type { EventEnv } from "./events.ts";
import { matchPath } from "./http/mod.ts";
import type { Chat, User, World } from "./world.ts";

/** An input error with the HTTP status to answer. */
class Refusal extends Error {
  constructor(message: string, readonly status: 400 | 404 = 400) {
    super(message);
  }
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
  });
}

function chatOf(world: World, id: string): Chat {
  const chat = world.chats.get(id);
  if (!chat) throw new Refusal(`Expected a known chat_id but found ${id}`, 404);
  if (chat.dissolvedAt !== undefined) throw new Refusal(`Expected ${id} not to be dissolved`);
  return chat;
}

/** The named user, or `fallback` when none is named; must be a member of the chat. */
function memberOf(world: World, chat: Chat, named: unknown, fallback: string): User {
  const id = typeof named === "string" && named !== "" ? named : fallback;
  const user = world.findUser(id);
  if (!user) throw new Refusal(`Expected a known user but found ${id}`);
  if (!chat.members.includes(user.openId)) {
    throw new Refusal(`Expected ${user.name} to be a member of ${chat.chatId}`);
  }
  return user;
}

/**
 * `{message_id, user_id?}`: the sender recalls their message, or the group's
 * owner recalls someone's (`recall_type: group_owner`). A bot's message
 * cannot be recalled by a person. The bot is told when it is in the chat.
 */
function recallByUser(env: EventEnv, b: Record<string, unknown>): Response {
  const world = env.core.world;
  const id = String(b.message_id ?? "");
  const message = world.messages.get(id);
  if (!message) throw new Refusal(`Expected a known message_id but found ${id}`, 404);
  if (message.deleted) throw new Refusal(`Expected ${id} not to be recalled already`);
  if (message.sender.type !== "user") {
    throw new Refusal(`Expected a user's message but ${id} was sent by a bot`);
  }
  const chat = chatOf(world, message.chatId);
  const user = memberOf(world, chat, b.user_id, message.sender.id);
  let recallType = "message_owner";
  if (user.openId !== message.sender.id) {
    if (chat.mode === "p2p" || chat.ownerOpenId !== user.openId) {
      throw new Refusal(
        `Expected ${user.name} to have sent ${id} or to own the group, but neither holds`,
      );
    }
    recallType = "group_owner";
  }
  const app = world.primaryApp();
  const told = recall(env, { messageId: id, push: chat.bots.has(app.appId), recallType });
  return json({ message_id: id, recall_type: recallType, event_id: told?.eventId ?? null });
}

/** `{present, operator?}`: a member (default: the owner) adds or removes the primary bot. */
function setBot(env: EventEnv, chatId: string, b: Record<string, unknown>): Response {
  const world = env.core.world;
  const chat = chatOf(world, chatId);
  if (typeof b.present !== "boolean") {
    throw new Refusal(
      `Expected present to be true or false but found ${JSON.stringify(b.present)}`,
    );
  }
  if (chat.mode === "p2p") throw new Refusal(`Expected a group chat but ${chatId} is a p2p chat`);
  const app = world.primaryApp();
  if (chat.bots.has(app.appId) === b.present) {
    throw new Refusal(`Expected ${app.botName} ${b.present ? "not " : ""}to be in ${chatId}`);
  }
  const operator = memberOf(world, chat, b.operator, chat.ownerOpenId);
  const told = setBotInChat(env, { chat: chatId, added: b.present, operator: operator.openId });
  return json({ bot_member: b.present, event_id: told.eventId });
}

/** `{operator?}`: the group's owner (the default operator) dissolves it. */
function dissolveGroup(env: EventEnv, chatId: string, b: Record<string, unknown>): Response {
  const world = env.core.world;
  const chat = chatOf(world, chatId);
  if (chat.mode === "p2p") throw new Refusal(`Expected a group chat but ${chatId} is a p2p chat`);
  const operator = memberOf(world, chat, b.operator, chat.ownerOpenId);
  if (operator.openId !== chat.ownerOpenId) {
    throw new Refusal(`Expected the group's owner to dissolve it but found ${operator.name}`);
  }
  const told = dissolve(env, { chat: chatId, operator: operator.openId });
  return json({ dissolved: true, event_ids: told.map((t) => t.eventId) });
}

/**
 * Handles `POST /__emu/api/recall`, `…/chats/:chat_id/bot` and
 * `…/chats/:chat_id/dissolve`; undefined for any other request.
 */
export function handleChatControl(
  env: EventEnv,
  method: string,
  path: string,
  body: Record<string, unknown>,
): Response | undefined {
  if (method !== "POST") return undefined;
  try {
    if (path === "/__emu/api/recall") return recallByUser(env, body);
    const bot = matchPath("/__emu/api/chats/:chat_id/bot", path);
    if (bot) return setBot(env, bot.chat_id ?? "", body);
    const gone = matchPath("/__emu/api/chats/:chat_id/dissolve", path);
    if (gone) return dissolveGroup(env, gone.chat_id ?? "", body);
  } catch (error) {
    if (error instanceof Refusal) return json({ error: error.message }, error.status);
    throw error;
  }
  return undefined;
}
