/**
 * Reactions: add (`POST …/reactions`), remove (`DELETE …/reactions/:id`) and
 * list. Deleted or unknown messages answer 231003; a bad emoji 231001;
 * removing someone else's reaction 231002. A second add of the same emoji
 * answers the app's existing reaction, unless `duplicateReactions` is set.
 * @module
 */

import type { Core } from "../core.ts";
import { pushReactionEvent } from "../events.ts";
import { addReaction, removeReaction } from "../ops.ts";
import type { App, Reaction, StoredMessage } from "../world.ts";
import { ApiError, ok } from "./_envelope.ts";
import { page } from "./contacts.ts";
import { bodyOf, requireBotIn } from "./messages.ts";
import type { Route } from "./router.ts";

/**
 * The Open API reaction object.
 *
 * @example
 * ```ts
 * import { reactionView } from "./reactions.ts";
 * const v = reactionView({
 *   reactionId: "rc_1", messageId: "om_1", emojiType: "OK", operatorType: "app", operatorId: "cli_x", actionTime: 5,
 * });
 * if (JSON.stringify(v.reaction_type) !== '{"emoji_type":"OK"}' || v.action_time !== "5") throw new Error();
 * ```
 */
export function reactionView(r: Reaction): Record<string, unknown> {
  return {
    reaction_id: r.reactionId,
    operator: { operator_id: r.operatorId, operator_type: r.operatorType },
    action_time: String(r.actionTime),
    reaction_type: { emoji_type: r.emojiType },
  };
}

function target(core: Core, app: App, id: string): StoredMessage {
  const m = core.world.messages.get(id);
  if (!m || m.deleted) {
    throw new ApiError(231003, "The message is not found, maybe not exist or deleted.");
  }
  const chat = core.world.chats.get(m.chatId);
  if (chat) requireBotIn(chat, app);
  return m;
}

/** Routes of this area. */
export const reactionRoutes: Route[] = [
  {
    method: "POST",
    pattern: "/open-apis/im/v1/messages/:message_id/reactions",
    handle: ({ core, hub, app, params, body }) => {
      const m = target(core, app, params.message_id ?? "");
      const rt = bodyOf(bodyOf(body).reaction_type);
      const emoji = rt.emoji_type;
      if (typeof emoji !== "string" || !/^[A-Za-z0-9_]+$/.test(emoji)) {
        throw new ApiError(231001, `reaction type is invalid: ${JSON.stringify(emoji)}`);
      }
      const { reaction, created } = addReaction(core, {
        messageId: m.messageId,
        emojiType: emoji,
        operatorType: "app",
        operatorId: app.appId,
      }, { duplicate: core.settings.duplicateReactions });
      if (created && core.settings.pushOwnReactionEvents) {
        pushReactionEvent({ core, hub }, { app, reaction, created: true });
      }
      return ok(reactionView(reaction));
    },
  },
  {
    method: "DELETE",
    pattern: "/open-apis/im/v1/messages/:message_id/reactions/:reaction_id",
    handle: ({ core, hub, app, params }) => {
      const m = target(core, app, params.message_id ?? "");
      const reaction = core.world.reactions.get(params.reaction_id ?? "");
      if (!reaction || reaction.messageId !== m.messageId) {
        throw new ApiError(231003, `The reaction ${params.reaction_id} is not found.`);
      }
      if (reaction.operatorType !== "app" || reaction.operatorId !== app.appId) {
        throw new ApiError(231002, "No permission to remove this reaction.");
      }
      removeReaction(core, reaction);
      if (core.settings.pushOwnReactionEvents) {
        pushReactionEvent({ core, hub }, { app, reaction, created: false });
      }
      return ok(reactionView(reaction));
    },
  },
  {
    method: "GET",
    pattern: "/open-apis/im/v1/messages/:message_id/reactions",
    handle: ({ core, app, params, query }) => {
      const m = target(core, app, params.message_id ?? "");
      const type = query.get("reaction_type");
      const rows = core.world.reactionsOf(m.messageId)
        .filter((r) => !type || r.emojiType === type)
        .map(reactionView);
      return ok(page(rows, query, { initial: 20, max: 50 }));
    },
  },
];
