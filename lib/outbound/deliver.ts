/**
 * The delivery adapter: one logical message's wire bodies go out in order
 * inside one scheduler run
 * (never interleaved with another message to the same conversation), each
 * with its `uuid`. Routing: a send creates every
 * chunk; a reply sends chunk 1 as a reply to the target and the rest as
 * replies too when `reply_in_thread`, else creates them in the chat. It stops
 * at the first failed chunk; a `RATE_LIMITED` answer blocks the conversation
 * (or the app) for its hint. No fallback, no downgrade, and one retry rule
 * only: a chunk Feishu did not answer (timeout, broken connection) may have
 * landed, so it is sent again under the same `uuid` (each try on a fresh
 * connection, `lib/feishu/_http.ts`): Feishu answers the message it already
 * has, or creates it. Still unanswered after {@link UNANSWERED_RETRIES}, the
 * chunk's fate is reported as unknown, never as failed.
 * @module
 */

import { asBridgeError, BridgeError } from "../core/mod.ts";
import type { FeishuApi, FeishuMessage, ReceiveIdType } from "../feishu/mod.ts";
import type { OutboundScheduler, Priority } from "./scheduler.ts";
import type { WireBody } from "./types.ts";

/** The message calls delivery makes (a {@link FeishuApi} has them). */
export type DeliveryApi = Pick<FeishuApi, "createMessage" | "replyMessage">;

/** Where the chunks of one logical message go. */
export type DeliveryRoute =
  | { kind: "create"; receiveId: string; receiveIdType: ReceiveIdType }
  | { kind: "reply"; targetId: string; chatId: string; replyInThread: boolean };

/** One logical message, materialised. */
export interface DeliveryRequest {
  route: DeliveryRoute;
  bodies: readonly WireBody[];
  /** One `uuid` per body, same order. */
  uuids: readonly string[];
  /** The scheduler key: the conversation the chunks land in. */
  lane: string;
  /** Urgency among the writes waiting for the lane (default: an answer). */
  priority?: Priority;
  signal?: AbortSignal;
  /** Told of each chunk as Feishu answers it (0-based index). */
  onDelivered?(index: number, message: FeishuMessage): void;
}

/** What was delivered, in order, and the error of the chunk that stopped it. */
export interface DeliveryOutcome {
  delivered: FeishuMessage[];
  chunkCount: number;
  /** Present when chunk `delivered.length + 1` failed or went unanswered. */
  failure?: BridgeError;
  /** True when Feishu never answered for that chunk: it may have arrived. */
  unknown?: boolean;
}

/** Further tries of a chunk Feishu did not answer, under the same uuid. */
export const UNANSWERED_RETRIES = 2;

/**
 * True when no Feishu answer was read (a timeout, a broken or refused
 * connection, a body cut off, a gateway page without Feishu's envelope), so
 * the request may or may not have taken effect.
 *
 * @example
 * ```ts
 * import { BridgeError } from "../core/mod.ts";
 * import { unanswered } from "./deliver.ts";
 * if (!unanswered(new BridgeError("SEND_TIMEOUT", "t"))) throw new Error();
 * if (unanswered(new BridgeError("UNKNOWN", "x", { context: { providerCode: 55001 } }))) throw new Error();
 * ```
 */
export function unanswered(err: unknown): boolean {
  if (!(err instanceof BridgeError)) return false;
  if (err.code === "SEND_TIMEOUT") return true;
  return err.code === "UNKNOWN" && err.context.providerCode === undefined;
}

/** Provider codes whose limit is per conversation; other rate limits are app-wide. */
const CHAT_RATE_CODES = new Set([230020]);

/** The wait after a rate limit without a hint, in seconds. */
export const DEFAULT_RATE_LIMIT_PAUSE_SECONDS = 1;

/**
 * Honours a `RATE_LIMITED` answer: the conversation pauses for a per-chat
 * limit, the whole app for any other, for the hint Feishu gave (else 1 s).
 * Other errors change nothing.
 */
export function pauseAfterRateLimit(
  scheduler: OutboundScheduler,
  err: unknown,
  lane: string,
): void {
  if (!(err instanceof BridgeError) || err.code !== "RATE_LIMITED") return;
  const chatWide = CHAT_RATE_CODES.has(err.context.providerCode ?? -1);
  scheduler.blockFor(
    err.retryAfterSeconds ?? DEFAULT_RATE_LIMIT_PAUSE_SECONDS,
    chatWide ? { key: lane } : {},
  );
}

/**
 * Sends the bodies of one logical message in order (an unanswered chunk is
 * tried again, see the module doc).
 * Resolves with what was delivered; never throws for a Feishu refusal (the
 * caller decides between full failure and partial delivery).
 */
export async function deliverChunks(
  ports: { api: DeliveryApi; scheduler: OutboundScheduler },
  req: DeliveryRequest,
): Promise<DeliveryOutcome> {
  if (req.uuids.length !== req.bodies.length) {
    throw new RangeError(
      `Expected one uuid per body (${req.bodies.length}) but found ${req.uuids.length}`,
    );
  }
  const { api, scheduler } = ports;
  const delivered: FeishuMessage[] = [];
  const chunkCount = req.bodies.length;
  return await scheduler.run(req.lane, async (slot) => {
    for (const [k, body] of req.bodies.entries()) {
      const done = await slot(req.signal);
      try {
        const chunk = { k, body, uuid: req.uuids[k]! };
        const message = await whileUnanswered(() => sendOne(api, req.route, chunk));
        delivered.push(message);
        try {
          req.onDelivered?.(k, message);
        } catch {
          // bookkeeping: a delivered chunk stays delivered whatever happens to its note
        }
      } catch (err) {
        pauseAfterRateLimit(scheduler, err, req.lane);
        const out: DeliveryOutcome = { delivered, chunkCount, failure: asBridgeError(err) };
        if (unanswered(err)) out.unknown = true;
        return out;
      } finally {
        done();
      }
    }
    return { delivered, chunkCount };
  }, { signal: req.signal, priority: req.priority });
}

/**
 * Runs a call that is safe to repeat (a chunk under its uuid, a card PATCH
 * of the same content), again while Feishu gives no answer, at most
 * {@link UNANSWERED_RETRIES} more times.
 */
export async function whileUnanswered<T>(call: () => Promise<T>): Promise<T> {
  let unanswer: unknown = null;
  for (let retry = 0;; retry++) {
    try {
      return await call();
    } catch (err) {
      if (!unanswered(err)) {
        // A refusal of a retry (a rate limit, say) says nothing of the try Feishu
        // never answered: that one may have landed, so the fate stays unknown.
        throw unanswer ?? err;
      }
      unanswer = err;
      if (retry >= UNANSWERED_RETRIES) throw err;
    }
  }
}

function sendOne(
  api: DeliveryApi,
  route: DeliveryRoute,
  chunk: { k: number; body: WireBody; uuid: string },
): Promise<FeishuMessage> {
  const { k, body, uuid } = chunk;
  if (route.kind === "create") {
    return api.createMessage({
      receiveId: route.receiveId,
      receiveIdType: route.receiveIdType,
      msgType: body.msg_type,
      content: body.content,
      uuid,
    });
  }
  if (k === 0 || route.replyInThread) {
    return api.replyMessage({
      messageId: route.targetId,
      msgType: body.msg_type,
      content: body.content,
      replyInThread: route.replyInThread,
      uuid,
    });
  }
  return api.createMessage({
    receiveId: route.chatId,
    receiveIdType: "chat_id",
    msgType: body.msg_type,
    content: body.content,
    uuid,
  });
}
