/**
 * Sending: `POST im/v1/messages` (every `receive_id_type`; a p2p send lands
 * in the user's chat with the bot) and `POST im/v1/messages/:id/reply`
 * (`reply_in_thread`), both with `uuid` idempotency for one hour: a repeated
 * uuid answers with the original message and creates nothing. A new group
 * message goes to the other bots it @-mentions (see ../bots.ts for the rule).
 * @module
 */

import type { Core } from "../core.ts";
import { pushToOtherBots } from "../events.ts";
import { ensureP2pChat, storeMessage } from "../ops.ts";
import { messageView } from "../views.ts";
import type { App, Chat, StoredMessage } from "../world.ts";
import { ApiError, ok } from "./_envelope.ts";
import { checkContent } from "./content.ts";
import type { Route, RouteCtx } from "./router.ts";

const RECEIVE_ID_TYPES = new Set(["open_id", "user_id", "union_id", "email", "chat_id"]);

/**
 * The JSON body as a record ({} when absent or not an object).
 *
 * @example
 * ```ts
 * import { bodyOf } from "./messages.ts";
 * if (Object.keys(bodyOf([1])).length !== 0 || bodyOf({ a: 1 }).a !== 1) throw new Error();
 * ```
 */
export function bodyOf(body: unknown): Record<string, unknown> {
  return typeof body === "object" && body !== null && !Array.isArray(body)
    ? body as Record<string, unknown>
    : {};
}

/** A chat the bot may post in, or 230045 (dissolved), or 230002 (bot not in it). */
export function requireBotIn(chat: Chat, app: App): void {
  if (chat.dissolvedAt !== undefined) throw new ApiError(230045, "The chat has been dissolved.");
  if (!chat.bots.has(app.appId)) throw new ApiError(230002, "Bot is not in the chat.");
}

/** A message by id, or 230001. */
export function messageById(core: Core, id: string): StoredMessage {
  const m = core.world.messages.get(id);
  if (!m) throw new ApiError(230001, `invalid message_id ${id}`);
  return m;
}

function resolveTarget(core: Core, app: App, type: string, id: string): Chat {
  if (type === "chat_id") {
    const chat = core.world.chats.get(id);
    if (!chat) throw new ApiError(230001, `invalid receive_id ${id}`);
    requireBotIn(chat, app);
    return chat;
  }
  const user = core.world.findUser(id, type);
  if (!user) throw new ApiError(230001, `invalid receive_id ${id} for receive_id_type ${type}`);
  if (!user.available) throw new ApiError(230013, "Bot has NO availability to this user.");
  return ensureP2pChat(core, app, user);
}

/** The original message of a uuid used within the window, if any. */
function replayed(core: Core, app: App, uuid: unknown): StoredMessage | undefined {
  if (typeof uuid !== "string" || uuid === "") return undefined;
  const seen = core.world.uuids.get(`${app.appId}|${uuid}`);
  if (!seen || core.clock.now() - seen.at >= core.settings.uuidWindowMs) return undefined;
  return core.world.messages.get(seen.messageId);
}

function send(
  ctx: RouteCtx,
  input: { chat: Chat; b: Record<string, unknown>; replyTo?: StoredMessage },
): Response {
  const { core, app, faults } = ctx;
  const { chat, b } = input;
  const checked = checkContent(core.world, {
    appId: app.appId,
    msgType: b.msg_type,
    content: b.content,
    limits: core.settings.limits,
  });
  faults.checkChat(chat.chatId);
  const uuid = typeof b.uuid === "string" && b.uuid !== "" ? b.uuid : undefined;
  const message = storeMessage(core, {
    chat,
    sender: { type: "app", id: app.appId },
    msgType: b.msg_type as string,
    content: checked.content,
    resources: checked.resources,
    mentions: checked.mentions,
    replyTo: input.replyTo,
    inThread: b.reply_in_thread === true,
    uuid,
  });
  if (uuid) {
    core.world.uuids.set(`${app.appId}|${uuid}`, {
      messageId: message.messageId,
      at: core.clock.now(),
    });
  }
  pushToOtherBots({ core, hub: ctx.hub }, message);
  return ok(messageView(core.world, message));
}

/** Routes of this area. */
export const messageRoutes: Route[] = [
  {
    method: "POST",
    pattern: "/open-apis/im/v1/messages",
    handle: (ctx) => {
      const type = ctx.query.get("receive_id_type") ?? "";
      if (!RECEIVE_ID_TYPES.has(type)) {
        throw new ApiError(
          99992402,
          `field validation failed, receive_id_type is required and must be one of open_id, user_id, union_id, email, chat_id but found "${type}"`,
        );
      }
      const b = bodyOf(ctx.body);
      if (typeof b.receive_id !== "string" || b.receive_id === "") {
        throw new ApiError(99992402, "field validation failed, receive_id is required");
      }
      const original = replayed(ctx.core, ctx.app, b.uuid);
      if (original) return ok(messageView(ctx.core.world, original));
      return send(ctx, { chat: resolveTarget(ctx.core, ctx.app, type, b.receive_id), b });
    },
  },
  {
    method: "POST",
    pattern: "/open-apis/im/v1/messages/:message_id/reply",
    handle: (ctx) => {
      const b = bodyOf(ctx.body);
      const original = replayed(ctx.core, ctx.app, b.uuid);
      if (original) return ok(messageView(ctx.core.world, original));
      const target = messageById(ctx.core, ctx.params.message_id ?? "");
      const chat = ctx.core.world.chats.get(target.chatId);
      if (!chat) throw new ApiError(230001, `invalid message_id ${target.messageId}`);
      requireBotIn(chat, ctx.app);
      if (target.deleted) throw new ApiError(230011, "The message was withdrawn.");
      return send(ctx, { chat, b, replyTo: target });
    },
  },
];
