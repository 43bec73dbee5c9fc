/**
 * Event envelopes and pushing them over the long connection: messages
 * received, reactions, reads, the bot added to or removed from a chat, recalls
 * and card clicks.
 * @module
 */

import type { Core } from "./core.ts";
import { ID_PREFIX } from "./ids.ts";
import { envelope, eventMessage, userIds } from "./views.ts";
import type { App, Chat, Reaction, StoredMessage, User } from "./world.ts";
import type { EventRecord, PushOptions, WsHub } from "./ws/mod.ts";

/** The two things pushing an event needs. */
export interface EventEnv {
  core: Core;
  hub: WsHub;
}

/** Builds the envelope of `eventType` for `app` and pushes it. */
export function pushEvent(
  env: EventEnv,
  input: {
    app: App;
    eventType: string;
    event: Record<string, unknown>;
    /** Microsecond create_time (the card callback sample uses µs). */
    micros?: boolean;
    options?: PushOptions;
  },
): EventRecord {
  const { core, hub } = env;
  const now = core.clock.now();
  const body = envelope(input.app, {
    eventId: core.ids.next(ID_PREFIX.event),
    eventType: input.eventType,
    createTime: input.micros ? `${now}000` : String(now),
    event: input.event,
  });
  return hub.deliveries.push(input.app.appId, body, input.options);
}

/** Pushes `im.message.receive_v1` for a message a user sent. */
export function pushMessageEvent(
  env: EventEnv,
  input: { app: App; message: StoredMessage; sender: User; options?: PushOptions },
): EventRecord {
  return pushEvent(env, {
    app: input.app,
    eventType: "im.message.receive_v1",
    event: {
      sender: {
        sender_id: userIds(input.sender),
        sender_type: "user",
        tenant_key: input.app.tenantKey,
      },
      message: eventMessage(env.core.world, input.message),
    },
    options: input.options,
  });
}

/**
 * Pushes `im.message.receive_v1` to `app` for a message another app's bot
 * sent: `sender_type` "app", and as `sender_id` the sending bot's ids
 * (its open_id and union_id; a bot has no user_id).
 */
export function pushBotMessageEvent(
  env: EventEnv,
  input: { app: App; message: StoredMessage; sender: App; options?: PushOptions },
): EventRecord {
  return pushEvent(env, {
    app: input.app,
    eventType: "im.message.receive_v1",
    event: {
      sender: {
        sender_id: {
          union_id: input.sender.botUnionId,
          user_id: "",
          open_id: input.sender.botOpenId,
        },
        sender_type: "app",
        tenant_key: input.sender.tenantKey,
      },
      message: eventMessage(env.core.world, input.message),
    },
    options: input.options,
  });
}

/**
 * Pushes an app's new message to the other bots of its chat that should get
 * it (the rule is in bots.ts); returns the event ids, in app order.
 */
export function pushToOtherBots(
  env: EventEnv,
  message: StoredMessage,
  options?: PushOptions,
): string[] {
  const { world, settings } = env.core;
  const chat = world.chats.get(message.chatId);
  const sender = message.sender.type === "app" ? world.apps.get(message.sender.id) : undefined;
  if (!chat || chat.mode === "p2p" || !sender) return [];
  const out: string[] = [];
  for (const appId of chat.bots) {
    const app = world.apps.get(appId);
    if (!app || appId === sender.appId) continue;
    const mentioned = message.mentions.some((m) => m.openId === app.botOpenId);
    if (!mentioned && settings.botMessages !== "all") continue;
    out.push(pushBotMessageEvent(env, { app, message, sender, options }).eventId);
  }
  return out;
}

/** Pushes `im.message.reaction.created_v1` or `deleted_v1`. */
export function pushReactionEvent(
  env: EventEnv,
  input: { app: App; reaction: Reaction; created: boolean; options?: PushOptions },
): EventRecord {
  const { reaction } = input;
  const event: Record<string, unknown> = {
    message_id: reaction.messageId,
    reaction_type: { emoji_type: reaction.emojiType },
    operator_type: reaction.operatorType,
  };
  if (reaction.operatorType === "app") event.app_id = reaction.operatorId;
  else {
    const user = env.core.world.users.get(reaction.operatorId);
    event.user_id = user
      ? userIds(user)
      : { union_id: "", user_id: "", open_id: reaction.operatorId };
  }
  event.action_time = String(env.core.clock.now());
  return pushEvent(env, {
    app: input.app,
    eventType: `im.message.reaction.${input.created ? "created" : "deleted"}_v1`,
    event,
    options: input.options,
  });
}

/** Pushes `im.message.message_read_v1`. */
export function pushReadEvent(
  env: EventEnv,
  input: { app: App; reader: User; messageIds: string[]; options?: PushOptions },
): EventRecord {
  return pushEvent(env, {
    app: input.app,
    eventType: "im.message.message_read_v1",
    event: {
      reader: {
        reader_id: userIds(input.reader),
        read_time: String(env.core.clock.now()),
        tenant_key: input.app.tenantKey,
      },
      message_id_list: input.messageIds,
    },
    options: input.options,
  });
}

/** Pushes `im.chat.member.bot.added_v1` or `deleted_v1`. */
export function pushBotMemberEvent(
  env: EventEnv,
  input: { app: App; chat: Chat; operator: User; added: boolean; options?: PushOptions },
): EventRecord {
  return pushEvent(env, {
    app: input.app,
    eventType: `im.chat.member.bot.${input.added ? "added" : "deleted"}_v1`,
    event: chatOperatorEvent(input),
    options: input.options,
  });
}

/** The body Feishu's chat events share: the chat, who acted, and its names. */
function chatOperatorEvent(input: { app: App; chat: Chat; operator: User }) {
  return {
    chat_id: input.chat.chatId,
    operator_id: userIds(input.operator),
    external: false,
    operator_tenant_key: input.app.tenantKey,
    name: input.chat.name,
    i18n_names: { zh_cn: input.chat.name, en_us: input.chat.name, ja_jp: "" },
  };
}

/** Pushes `im.chat.disbanded_v1` (a group dissolved by `operator`). */
export function pushDisbandedEvent(
  env: EventEnv,
  input: { app: App; chat: Chat; operator: User; options?: PushOptions },
): EventRecord {
  return pushEvent(env, {
    app: input.app,
    eventType: "im.chat.disbanded_v1",
    event: chatOperatorEvent(input),
    options: input.options,
  });
}

/**
 * Pushes `im.chat.access_event.bot_p2p_chat_entered_v1`: a user opened the
 * bot's DM (also before any message, a first DM), with the chat's newest message.
 */
export function pushP2pEnteredEvent(
  env: EventEnv,
  input: { app: App; chat: Chat; user: User; options?: PushOptions },
): EventRecord {
  const last = env.core.world.messagesOf(input.chat.chatId).at(-1);
  return pushEvent(env, {
    app: input.app,
    eventType: "im.chat.access_event.bot_p2p_chat_entered_v1",
    event: {
      chat_id: input.chat.chatId,
      operator_id: userIds(input.user),
      last_message_id: last?.messageId ?? "",
      last_message_create_time: last ? String(last.createTime) : "",
    },
    options: input.options,
  });
}

/** Pushes `im.message.recalled_v1`. */
export function pushRecalledEvent(
  env: EventEnv,
  input: { app: App; message: StoredMessage; recallType?: string; options?: PushOptions },
): EventRecord {
  return pushEvent(env, {
    app: input.app,
    eventType: "im.message.recalled_v1",
    event: {
      message_id: input.message.messageId,
      chat_id: input.message.chatId,
      recall_time: String(env.core.clock.now()),
      recall_type: input.recallType ?? "message_owner",
    },
    options: input.options,
  });
}

/** The `action` of a card click. */
export interface CardAction {
  value?: unknown;
  tag?: string;
  name?: string;
  form_value?: Record<string, unknown>;
  input_value?: string;
  option?: string;
  options?: string[];
  checked?: boolean;
}

/**
 * Pushes `card.action.trigger` (a schema 2.0 callback) carrying `token`, the
 * delayed-update token; `options` choose the frame type and make it a
 * callback.
 */
export function pushCardEvent(
  env: EventEnv,
  input: {
    app: App;
    message: StoredMessage;
    operator: User;
    action: CardAction;
    token: string;
    options?: PushOptions;
  },
): EventRecord {
  const { action } = input;
  return pushEvent(env, {
    app: input.app,
    eventType: "card.action.trigger",
    micros: true,
    event: {
      operator: { tenant_key: input.app.tenantKey, ...userIds(input.operator) },
      token: input.token,
      action: {
        value: action.value ?? {},
        tag: action.tag ?? "button",
        ...(action.name !== undefined ? { name: action.name } : {}),
        timezone: "Asia/Shanghai",
        form_value: action.form_value ?? {},
        input_value: action.input_value ?? "",
        option: action.option ?? "",
        options: action.options ?? [],
        checked: action.checked ?? false,
      },
      host: "im_message",
      delivery_type: "",
      context: {
        open_message_id: input.message.messageId,
        open_chat_id: input.message.chatId,
        url: "",
        preview_token: "",
      },
    },
    options: input.options,
  });
}
