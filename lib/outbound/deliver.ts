/**
 * The single-attempt delivery adapter: one logical message's wire bodies go
 * out in order inside one scheduler run
 * (never interleaved with another message to the same conversation), one
 * attempt per chunk, each with its `uuid`. Routing: a send creates every
 * chunk; a reply sends chunk 1 as a reply to the target and the rest as
 * replies too when `reply_in_thread`, else creates them in the chat. It stops
 * at the first failed chunk; a `RATE_LIMITED` answer blocks the conversation
 * (or the app) for its hint. No retry, no fallback, no downgrade.
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
}

/** What was delivered, in order, and the error of the chunk that stopped it. */
export interface DeliveryOutcome {
  delivered: FeishuMessage[];
  chunkCount: number;
  /** Present when chunk `delivered.length + 1` failed. */
  failure?: BridgeError;
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
 * Sends the bodies of one logical message, one attempt each, in order.
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
        delivered.push(await sendOne(api, req.route, { k, body, uuid: req.uuids[k]! }));
      } catch (err) {
        pauseAfterRateLimit(scheduler, err, req.lane);
        return { delivered, chunkCount, failure: asBridgeError(err) };
      } finally {
        done();
      }
    }
    return { delivered, chunkCount };
  }, { signal: req.signal, priority: req.priority });
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
