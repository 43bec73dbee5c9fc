/**
 * Delayed card update: `POST /open-apis/interactive/v1/card/update` with
 * `{token, card}`, where `token` is the one a `card.action.trigger` callback
 * carried. The token is good for 30 minutes after the callback (emulator
 * clock) and for two successful updates; each update replaces the card the
 * user clicked, as PATCH does, without counting as an edit. Answers
 * `{code: 0, msg: "ok"}`.
 * @module
 */

import { updateContent } from "../ops.ts";
import { ApiError, json } from "./_envelope.ts";
import { checkContent } from "./content.ts";
import { bodyOf } from "./messages.ts";
import type { Route } from "./router.ts";

/** How long a callback token may be used, in ms. */
export const CARD_TOKEN_TTL_MS = 30 * 60 * 1000;
/** How many successful updates one token allows. */
export const CARD_TOKEN_MAX_USES = 2;

/** Card checks answer the codes of this endpoint, not the message ones. */
function cardError(error: unknown): unknown {
  if (!(error instanceof ApiError)) return error;
  if (error.code === 230025) {
    return new ApiError(100000, `The card content exceeds the size limit. ${error.message}`);
  }
  return new ApiError(11311, `The card format does not meet the requirements. ${error.message}`);
}

/** Routes of this area. */
export const cardUpdateRoutes: Route[] = [
  {
    method: "POST",
    pattern: "/open-apis/interactive/v1/card/update",
    handle: ({ core, app, body }) => {
      const b = bodyOf(body);
      const token = b.token;
      if (typeof token !== "string" || !/^c-[A-Za-z0-9_-]+$/.test(token)) {
        throw new ApiError(
          300020,
          "The token format is invalid: expected c-xxxx from a card callback.",
        );
      }
      const entry = core.world.cardTokens.get(token);
      if (!entry) {
        throw new ApiError(300020, "The token is invalid: no card callback carried it.");
      }
      const message = core.world.messages.get(entry.messageId);
      const own = message?.sender.type === "app" && message.sender.id === app.appId;
      if (entry.appId !== app.appId || !message || !own) {
        throw new ApiError(200310, "Cards sent by another app cannot be updated.");
      }
      if (core.clock.now() - entry.issuedAt > CARD_TOKEN_TTL_MS) {
        throw new ApiError(300030, "The token has expired: it is valid for 30 minutes.");
      }
      if (entry.uses >= CARD_TOKEN_MAX_USES) {
        throw new ApiError(300040, "The token has reached its usage limit of 2 updates.");
      }
      if (message.deleted) {
        throw new ApiError(200000, "The message card has been recalled.");
      }
      if (typeof b.card !== "object" || b.card === null || Array.isArray(b.card)) {
        throw new ApiError(10002, "card parameter validation failed: card must be an object.");
      }
      // open_ids chooses who sees an exclusive v1 card; it is not card content.
      const { open_ids: _who, ...card } = b.card as Record<string, unknown>;
      const content = JSON.stringify(card);
      try {
        checkContent(core.world, {
          appId: app.appId,
          msgType: "interactive",
          content,
          limits: core.settings.limits,
        });
      } catch (error) {
        throw cardError(error);
      }
      entry.uses++;
      updateContent(core, message, { content, countEdit: false });
      return json({ code: 0, msg: "ok" });
    },
  },
];
