/**
 * Card clicks as Feishu handles them. A click pushes `card.action.trigger`
 * once, in the frame type the emulator is set to, with a fresh delayed-update
 * token. The ACK's `data` (`{toast, card}`) is recorded and a `raw` card
 * replaces the message content. No ACK within the ACK timeout (the 3-second
 * rule, on the emulator clock) fails the click with 200341 and nothing is
 * pushed again; an app without a card callback fails every click with 200340
 * and gets no event at all.
 * @module
 */

import { type CardAction, type EventEnv, pushCardEvent } from "./events.ts";
import { ID_PREFIX } from "./ids.ts";
import { actors, type Inbound } from "./inbound.ts";
import { updateContent } from "./ops.ts";
import type { CardResult, StoredMessage, Toast } from "./world.ts";
import type { Ack, PushOptions } from "./ws/mod.ts";

/** Feishu's client error when the app has no card callback configured. */
const NO_CALLBACK_CODE = 200340;
/** Feishu's client error when the callback was not answered in time. */
const CALLBACK_TIMEOUT_CODE = 200341;

const NO_CALLBACK_MSG = "The app has no card callback address configured, or the configured " +
  "one is invalid; if it is configured, create and publish the latest app version.";
const TIMEOUT_MSG = "The card callback service did not answer the Feishu card server in time.";

/** A card click and its outcome. */
export interface Click extends Inbound {
  /**
   * Resolves with what the click produced: after the ACK was applied, when
   * the callback timed out, or at once when nothing was pushed (200340).
   * With nothing pushed `eventId` is "" and `ack` never settles.
   */
  result: Promise<CardResult>;
}

function asToast(v: unknown): Toast | undefined {
  return typeof v === "object" && v !== null ? v as Toast : undefined;
}

/** Reads the ACK's `data`: the toast and a card to show. */
function ackOutcome(ack: Ack): Pick<CardResult, "toast" | "card"> {
  const data = typeof ack.data === "object" && ack.data !== null
    ? ack.data as { toast?: unknown; card?: { type?: unknown; data?: unknown } }
    : {};
  const card = typeof data.card === "object" && data.card !== null
    ? { type: String(data.card.type), data: data.card.data }
    : undefined;
  return { toast: asToast(data.toast), card };
}

/**
 * A user clicks a card. Throws when the message is unknown or not a card,
 * or the user is not in its chat.
 */
export function clickCard(
  env: EventEnv,
  input: { user: string; messageId: string; action: CardAction; app?: string; push?: PushOptions },
): Click {
  const { core } = env;
  const message: StoredMessage | undefined = core.world.messages.get(input.messageId);
  if (!message) throw new Error(`Expected a known message_id but found ${input.messageId}`);
  if (message.msgType !== "interactive") {
    throw new Error(`Expected an interactive message but found ${message.msgType}`);
  }
  const { app, user } = actors(core, { user: input.user, chat: message.chatId, app: input.app });
  const base = { messageId: message.messageId, userOpenId: user.openId };
  const finish = (r: CardResult): CardResult => {
    core.world.cardResults.push(r);
    core.feed.emit({
      kind: "card.result",
      chat_id: message.chatId,
      message_id: message.messageId,
      ...(r.eventId ? { event_id: r.eventId } : {}),
    });
    return r;
  };
  if (app.cardCallback === "none") {
    const r = finish({
      ...base,
      eventId: "",
      applied: false,
      timedOut: false,
      errorCode: NO_CALLBACK_CODE,
      errorMessage: NO_CALLBACK_MSG,
      at: core.clock.now(),
    });
    return {
      eventId: "",
      messageId: message.messageId,
      ack: new Promise(() => {}),
      result: Promise.resolve(r),
    };
  }
  const resolved = Promise.withResolvers<CardResult>();
  const token = core.ids.next(ID_PREFIX.cardToken);
  const frameType = input.push?.frameType ?? core.settings.cardFrameType;
  const record = pushCardEvent(env, {
    app,
    message,
    operator: user,
    action: input.action,
    token,
    options: {
      ...input.push,
      frameType,
      callback: true,
      onAck: (ack) => {
        const { toast, card } = ackOutcome(ack);
        const applied = card?.type === "raw" && card.data !== undefined;
        if (applied) {
          updateContent(core, message, { content: JSON.stringify(card.data), countEdit: false });
        }
        resolved.resolve(finish({
          ...base,
          eventId: record.eventId,
          frameType,
          ackCode: ack.code,
          toast,
          card,
          applied,
          timedOut: false,
          at: core.clock.now(),
        }));
      },
      onTimeout: () => {
        resolved.resolve(finish({
          ...base,
          eventId: record.eventId,
          frameType,
          applied: false,
          timedOut: true,
          errorCode: CALLBACK_TIMEOUT_CODE,
          errorMessage: TIMEOUT_MSG,
          at: core.clock.now(),
        }));
      },
    },
  });
  core.world.cardTokens.set(token, {
    token,
    appId: app.appId,
    messageId: message.messageId,
    eventId: record.eventId,
    issuedAt: core.clock.now(),
    uses: 0,
  });
  return {
    eventId: record.eventId,
    messageId: message.messageId,
    ack: record.ackPromise,
    result: resolved.promise,
  };
}
