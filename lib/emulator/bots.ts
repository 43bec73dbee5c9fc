/**
 * Other bots in a chat. A message an app posts to a group or topic chat
 * (through the Open API, or scripted with `botSends`) is pushed as
 * `im.message.receive_v1` to every other app whose bot is a member of the
 * chat and is @-mentioned in the message (Feishu's rule for a bot with
 * `im:message.group_at_msg:readonly`); with the `botMessages: "all"` setting,
 * to every other app in the chat. An app never gets its own messages, and no
 * bot can DM another, so p2p chats push nothing.
 * @module
 */

import { type EventEnv, pushToOtherBots } from "./events.ts";
import { checkContent } from "./http/mod.ts";
import { storeMessage } from "./ops.ts";
import type { App } from "./world.ts";
import type { PushOptions } from "./ws/mod.ts";

/** What `botSends` takes. */
export interface BotMessageInput {
  /** The sending app's id (not the first app's, usually). */
  app: string;
  /** Target chat_id; the app's bot must be a member. */
  chat: string;
  text: string;
  /**
   * Who is @-mentioned: app ids (their bots) or open_ids (bots or users),
   * written as `<at user_id="…">` before the text, as an app's send does.
   */
  mention?: string[];
  /** message_id this replies to. */
  replyTo?: string;
  push?: PushOptions;
}

/** What `botSends` did: the message and the events pushed to the other bots. */
export interface BotSent {
  messageId: string;
  eventIds: string[];
}

function fail(msg: string): never {
  throw new Error(msg);
}

/** The `<at>` tag of a mentioned app id or open_id. */
function atTag(env: EventEnv, id: string): string {
  const { world } = env.core;
  const app = world.apps.get(id) ??
    [...world.apps.values()].find((a) => a.botOpenId === id);
  if (app) return `<at user_id="${app.botOpenId}">${app.botName}</at>`;
  const user = world.findUser(id) ?? fail(`Expected a known app, bot or user but found ${id}`);
  return `<at user_id="${user.openId}">${user.name}</at>`;
}

/**
 * An app's bot posts a text message to a chat, as its `POST im/v1/messages`
 * (or a reply) would: stored, with `<at>` mentions, and pushed to the other
 * bots that should get it.
 */
export function botSends(env: EventEnv, input: BotMessageInput): BotSent {
  const { world } = env.core;
  const app: App = world.apps.get(input.app) ?? fail(`Expected a known app but found ${input.app}`);
  const chat = world.chats.get(input.chat) ??
    fail(`Expected a known chat_id but found ${input.chat}`);
  if (!chat.bots.has(app.appId)) fail(`Expected the bot of ${app.appId} in ${chat.chatId}`);
  const replyTo = input.replyTo === undefined ? undefined : world.messages.get(input.replyTo) ??
    fail(`Expected a known message to reply to but found ${input.replyTo}`);
  const ats = (input.mention ?? []).map((id) => atTag(env, id));
  const text = [...ats, input.text].join(" ");
  const checked = checkContent(world, {
    appId: app.appId,
    msgType: "text",
    content: JSON.stringify({ text }),
    limits: env.core.settings.limits,
  });
  const message = storeMessage(env.core, {
    chat,
    sender: { type: "app", id: app.appId },
    msgType: "text",
    content: checked.content,
    mentions: checked.mentions,
    replyTo,
  });
  return { messageId: message.messageId, eventIds: pushToOtherBots(env, message, input.push) };
}
