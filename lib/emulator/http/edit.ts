/**
 * One message: `GET` (get), `PUT` (edit text/post: own messages, same
 * msg_type, 20 edits → 230072), `PATCH` (cards only) and `DELETE` (recall own
 * messages). Recalled targets answer 230011; others' messages 230012. A
 * forward reads with the messages forwarded in it (`upper_message_id`); a
 * message the bot may not read answers 230027.
 * @module
 */

import type { Core } from "../core.ts";
import { recallMessage, updateContent } from "../ops.ts";
import { messageView } from "../views.ts";
import type { App, StoredMessage } from "../world.ts";
import { ApiError, ok } from "./_envelope.ts";
import { checkContent } from "./content.ts";
import { bodyOf, messageById, requireBotIn } from "./messages.ts";
import type { Route } from "./router.ts";

function visible(core: Core, app: App, id: string): StoredMessage {
  const m = messageById(core, id);
  // A forwarded message is as visible as the chat message it arrived in.
  const chat = core.world.chats.get(core.world.outermost(m).chatId);
  if (chat) requireBotIn(chat, app);
  return m;
}

/** A message as `GET` answers it: a forward comes with every message forwarded in it. */
function readable(core: Core, app: App, id: string): StoredMessage[] {
  const m = visible(core, app, id);
  if (m.unreadable) throw new ApiError(230027, "Lack of necessary permissions");
  return m.msgType === "merge_forward" ? [m, ...core.world.forwardedIn(m.messageId)] : [m];
}

function own(core: Core, app: App, id: string): StoredMessage {
  const m = visible(core, app, id);
  if (m.sender.type !== "app" || m.sender.id !== app.appId) {
    throw new ApiError(230012, "The bot is not the sender of the message.");
  }
  if (m.deleted) throw new ApiError(230011, "The message was withdrawn.");
  return m;
}

/** Routes of this area. */
export const editRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/open-apis/im/v1/messages/:message_id",
    handle: ({ core, app, params }) => {
      const items = readable(core, app, params.message_id ?? "");
      return ok({ items: items.map((m) => messageView(core.world, m)) });
    },
  },
  {
    method: "PUT",
    pattern: "/open-apis/im/v1/messages/:message_id",
    handle: ({ core, app, params, body }) => {
      const m = own(core, app, params.message_id ?? "");
      const b = bodyOf(body);
      if (b.msg_type !== "text" && b.msg_type !== "post") {
        throw new ApiError(
          230001,
          `invalid message content, ext=only text and post messages can be edited but found ${
            String(b.msg_type)
          }`,
        );
      }
      if (m.msgType !== b.msg_type) {
        throw new ApiError(
          230001,
          `invalid message content, ext=msg_type cannot change from ${m.msgType} to ${b.msg_type}`,
        );
      }
      if (m.editCount >= core.settings.limits.editCount) {
        throw new ApiError(230072, "The message has reached the limit of edits.");
      }
      const checked = checkContent(core.world, {
        appId: app.appId,
        msgType: b.msg_type,
        content: b.content,
        limits: core.settings.limits,
      });
      updateContent(core, m, { ...checked, countEdit: true });
      return ok(messageView(core.world, m));
    },
  },
  {
    method: "PATCH",
    pattern: "/open-apis/im/v1/messages/:message_id",
    handle: ({ core, app, params, body }) => {
      const m = own(core, app, params.message_id ?? "");
      if (m.msgType !== "interactive") {
        throw new ApiError(
          230001,
          `invalid message content, ext=only interactive messages can be patched but found ${m.msgType}`,
        );
      }
      const checked = checkContent(core.world, {
        appId: app.appId,
        msgType: "interactive",
        content: bodyOf(body).content,
        limits: core.settings.limits,
      });
      updateContent(core, m, { content: checked.content, countEdit: false });
      return ok({});
    },
  },
  {
    method: "DELETE",
    pattern: "/open-apis/im/v1/messages/:message_id",
    handle: ({ core, app, params }) => {
      recallMessage(core, own(core, app, params.message_id ?? ""));
      return ok({});
    },
  },
];
