/**
 * Scripted actions other than sending and card clicks: reactions, reads, the
 * bot joining or leaving a chat, a group dissolved, and recalls.
 * @module
 */

import {
  type EventEnv,
  pushBotMemberEvent,
  pushDisbandedEvent,
  pushP2pEnteredEvent,
  pushReactionEvent,
  pushReadEvent,
  pushRecalledEvent,
} from "./events.ts";
import type { Inbound } from "./inbound.ts";
import { actors } from "./inbound.ts";
import {
  addReaction,
  dissolveChat,
  ensureP2pChat,
  recallMessage,
  removeReaction,
  setBotMember,
} from "./ops.ts";
import type { App, StoredMessage, User } from "./world.ts";
import type { PushOptions } from "./ws/mod.ts";

function fail(msg: string): never {
  throw new Error(msg);
}

function messageOf(env: EventEnv, id: string): StoredMessage {
  return env.core.world.messages.get(id) ?? fail(`Expected a known message_id but found ${id}`);
}

function appOf(env: EventEnv, appId?: string): App {
  const app = appId ? env.core.world.apps.get(appId) : env.core.world.primaryApp();
  return app ?? fail(`Expected a known app id but found ${appId}`);
}

function userOf(env: EventEnv, id: string): User {
  return env.core.world.findUser(id) ?? fail(`Expected a known user but found ${id}`);
}

/** A user adds (or, with `remove`, removes) a reaction; pushes the reaction event. */
export function userReacts(
  env: EventEnv,
  input: {
    user: string;
    messageId: string;
    emoji: string;
    remove?: boolean;
    app?: string;
    push?: PushOptions;
  },
): Inbound {
  const message = messageOf(env, input.messageId);
  const { app, user } = actors(env.core, {
    user: input.user,
    chat: message.chatId,
    app: input.app,
  });
  if (!/^[A-Za-z0-9_]+$/.test(input.emoji)) {
    fail(`Expected an emoji type such as THUMBSUP but found ${JSON.stringify(input.emoji)}`);
  }
  let reaction;
  if (input.remove) {
    reaction = env.core.world.reactionsOf(message.messageId).find((r) =>
      r.operatorId === user.openId && r.emojiType === input.emoji
    ) ?? fail(`Expected ${user.name} to have reacted ${input.emoji} but found no such reaction`);
    removeReaction(env.core, reaction);
  } else {
    const added = addReaction(env.core, {
      messageId: message.messageId,
      emojiType: input.emoji,
      operatorType: "user",
      operatorId: user.openId,
    });
    if (!added.created) fail(`Expected ${user.name} not to have reacted ${input.emoji} yet`);
    reaction = added.reaction;
  }
  const record = pushReactionEvent(env, {
    app,
    reaction,
    created: !input.remove,
    options: input.push,
  });
  return { eventId: record.eventId, messageId: message.messageId, ack: record.ackPromise };
}

/** A user reads messages (pushes `im.message.message_read_v1`). */
export function userReads(
  env: EventEnv,
  input: { user: string; messageIds: string[]; app?: string; push?: PushOptions },
): Inbound {
  const reader = userOf(env, input.user);
  for (const id of input.messageIds) messageOf(env, id);
  const record = pushReadEvent(env, {
    app: appOf(env, input.app),
    reader,
    messageIds: input.messageIds,
    options: input.push,
  });
  return { eventId: record.eventId, ack: record.ackPromise };
}

/** Adds the bot to a chat or removes it, pushing `bot.added_v1` / `bot.deleted_v1`. */
export function setBotInChat(
  env: EventEnv,
  input: { chat: string; added: boolean; operator: string; app?: string; push?: PushOptions },
): Inbound {
  const app = appOf(env, input.app);
  const chat = env.core.world.chats.get(input.chat) ??
    fail(`Expected a known chat_id but found ${input.chat}`);
  const operator = userOf(env, input.operator);
  setBotMember(env.core, chat, app.appId, input.added);
  const record = pushBotMemberEvent(env, {
    app,
    chat,
    operator,
    added: input.added,
    options: input.push,
  });
  return { eventId: record.eventId, ack: record.ackPromise };
}

/**
 * A user opens the bot's DM: the p2p chat is created when they never had one
 * (a first DM), and `bot_p2p_chat_entered_v1` is pushed.
 */
export function userEntersP2p(
  env: EventEnv,
  input: { user: string; app?: string; push?: PushOptions },
): Inbound & { chatId: string } {
  const app = appOf(env, input.app);
  const user = userOf(env, input.user);
  const chat = ensureP2pChat(env.core, app, user);
  const record = pushP2pEnteredEvent(env, { app, chat, user, options: input.push });
  return { eventId: record.eventId, chatId: chat.chatId, ack: record.ackPromise };
}

/** Recalls a message; with `push` also sends `im.message.recalled_v1`. */
export function recall(
  env: EventEnv,
  input: { messageId: string; push?: boolean; recallType?: string; app?: string },
): Inbound | undefined {
  const message = messageOf(env, input.messageId);
  recallMessage(env.core, message);
  if (!input.push) return undefined;
  const record = pushRecalledEvent(env, {
    app: appOf(env, input.app),
    message,
    recallType: input.recallType,
  });
  return { eventId: record.eventId, messageId: message.messageId, ack: record.ackPromise };
}

/**
 * A group's owner dissolves it: every app whose bot was in it gets
 * `im.chat.disbanded_v1`; sends, replies, reactions and history reads in it
 * fail with 230045 from then on. One `Inbound` per app told.
 */
export function dissolve(
  env: EventEnv,
  input: { chat: string; operator: string; push?: PushOptions },
): Inbound[] {
  const chat = env.core.world.chats.get(input.chat) ??
    fail(`Expected a known chat_id but found ${input.chat}`);
  if (chat.mode === "p2p") fail(`Expected a group chat but ${chat.chatId} is a p2p chat`);
  if (chat.dissolvedAt !== undefined) fail(`Expected ${chat.chatId} not to be dissolved yet`);
  const operator = userOf(env, input.operator);
  const apps = [...chat.bots].map((id) => appOf(env, id));
  dissolveChat(env.core, chat);
  return apps.map((app) => {
    const record = pushDisbandedEvent(env, { app, chat, operator, options: input.push });
    return { eventId: record.eventId, ack: record.ackPromise };
  });
}
