/**
 * How stored records look on the wire: the Open API Message object, the
 * `message` of an `im.message.receive_v1` event, user id triples and the v2
 * event envelope.
 * @module
 */

import type { App, Chat, StoredMessage, User, World } from "./world.ts";

/** The `{union_id, user_id, open_id}` triple events use. */
export interface UserIdTriple {
  union_id: string;
  user_id: string;
  open_id: string;
}

/**
 * A user's id triple.
 *
 * @example
 * ```ts
 * import { userIds } from "./views.ts";
 * const t = userIds({ openId: "ou_1", unionId: "on_1", userId: "u1" });
 * if (t.open_id !== "ou_1" || t.union_id !== "on_1" || t.user_id !== "u1") throw new Error();
 * ```
 */
export function userIds(user: Pick<User, "openId" | "unionId" | "userId">): UserIdTriple {
  return { union_id: user.unionId, user_id: user.userId, open_id: user.openId };
}

function tenantOf(world: World, m: StoredMessage): string {
  if (m.sender.type === "app") return world.apps.get(m.sender.id)?.tenantKey ?? "";
  return world.primaryApp().tenantKey;
}

/**
 * The Open API Message object (create, reply, update, get, list).
 *
 * @example
 * ```ts
 * import { messageView } from "./views.ts";
 * import { createDefaultWorld, DEFAULT_IDS } from "./fixtures.ts";
 * const w = createDefaultWorld();
 * const m = w.addMessage({
 *   messageId: "om_1", chatId: DEFAULT_IDS.team, sender: { type: "app", id: DEFAULT_IDS.appId },
 *   msgType: "text", content: '{"text":"hi"}', createTime: 1000, updateTime: 1000,
 *   deleted: false, updated: false, editCount: 0, resources: [], mentions: [],
 * });
 * const v = messageView(w, m) as { create_time: string; sender: { id_type: string } };
 * if (v.create_time !== "1000" || v.sender.id_type !== "app_id") throw new Error();
 * ```
 */
export function messageView(world: World, m: StoredMessage): Record<string, unknown> {
  const tenant_key = tenantOf(world, m);
  const view: Record<string, unknown> = { message_id: m.messageId };
  if (m.rootId) view.root_id = m.rootId;
  if (m.parentId) view.parent_id = m.parentId;
  if (m.threadId) view.thread_id = m.threadId;
  if (m.upperMessageId) view.upper_message_id = m.upperMessageId;
  Object.assign(view, {
    msg_type: m.msgType,
    create_time: String(m.createTime),
    update_time: String(m.updateTime),
    deleted: m.deleted,
    updated: m.updated,
    chat_id: m.chatId,
    sender: m.sender.type === "app"
      ? { id: m.sender.id, id_type: "app_id", sender_type: "app", tenant_key }
      : { id: m.sender.id, id_type: "open_id", sender_type: "user", tenant_key },
    body: { content: m.content },
  });
  if (m.mentions.length > 0) {
    view.mentions = m.mentions.map((x) => ({
      key: x.key,
      id: x.openId,
      id_type: "open_id",
      name: x.name,
      tenant_key,
    }));
  }
  return view;
}

/**
 * The `chat_type` an event reports: topic groups are plain `group`.
 *
 * @example
 * ```ts
 * import { eventChatType } from "./views.ts";
 * if (eventChatType({ mode: "topic" } as never) !== "group") throw new Error();
 * ```
 */
export function eventChatType(chat: Chat): "p2p" | "group" {
  return chat.mode === "p2p" ? "p2p" : "group";
}

/** The `message` object of an `im.message.receive_v1` event. */
export function eventMessage(world: World, m: StoredMessage): Record<string, unknown> {
  const chat = world.chats.get(m.chatId);
  const tenant_key = tenantOf(world, m);
  const msg: Record<string, unknown> = { message_id: m.messageId };
  if (m.rootId) msg.root_id = m.rootId;
  if (m.parentId) msg.parent_id = m.parentId;
  Object.assign(msg, {
    create_time: String(m.createTime),
    update_time: String(m.updateTime),
    chat_id: m.chatId,
  });
  if (m.threadId) msg.thread_id = m.threadId;
  Object.assign(msg, {
    chat_type: chat ? eventChatType(chat) : "group",
    message_type: m.msgType,
    content: m.content,
  });
  if (m.mentions.length > 0) {
    msg.mentions = m.mentions.map((x) => ({
      key: x.key,
      id: { union_id: x.unionId, user_id: x.userId, open_id: x.openId },
      name: x.name,
      tenant_key,
    }));
  }
  msg.user_agent = "Mozilla/5.0 (Emulator) Feishu/7.30.0";
  return msg;
}

/** The v2 event envelope. */
export interface EventEnvelope {
  schema: "2.0";
  header: {
    event_id: string;
    event_type: string;
    create_time: string;
    token: string;
    app_id: string;
    tenant_key: string;
  };
  event: Record<string, unknown>;
}

/**
 * Wraps an event body in the v2 envelope.
 *
 * @example
 * ```ts
 * import { envelope } from "./views.ts";
 * const e = envelope({ appId: "cli_x", tenantKey: "t" } as never, {
 *   eventId: "ev_1", eventType: "im.message.receive_v1", createTime: "5", event: {},
 * });
 * if (e.header.app_id !== "cli_x" || e.schema !== "2.0") throw new Error();
 * ```
 */
export function envelope(
  app: App,
  e: { eventId: string; eventType: string; createTime: string; event: Record<string, unknown> },
): EventEnvelope {
  return {
    schema: "2.0",
    header: {
      event_id: e.eventId,
      event_type: e.eventType,
      create_time: e.createTime,
      token: "",
      app_id: app.appId,
      tenant_key: app.tenantKey,
    },
    event: e.event,
  };
}
