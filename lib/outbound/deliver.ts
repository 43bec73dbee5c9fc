/**
 * The single-attempt delivery adapter (spec §3.5, ARCHITECTURE decision 6):
 * one logical message's wire bodies go out in order inside one scheduler run
 * (never interleaved with another message to the same conversation), one
 * attempt per chunk, each with its `uuid`. Routing: a send creates every
 * chunk; a reply sends chunk 1 as a reply to the target and the rest as
 * replies too when `reply_in_thread`, else creates them in the chat. It stops
 * at the first failed chunk; a `RATE_LIMITED` answer blocks the conversation
 * (or the app) for its hint. No retry, no fallback, no downgrade.
 * @module
 */

import { BridgeError } from "../core/mod.ts";
import type { FeishuApi, FeishuMessage, ReceiveIdType } from "../feishu/mod.ts";
import type { OutboundScheduler } from "./scheduler.ts";
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
 * The scheduler key of a route: the chat for chat ids and replies, else the
 * receive id with its type (a user's p2p conversation).
 *
 * @example
 * ```ts
 * import { laneOf } from "./deliver.ts";
 * if (laneOf({ kind: "create", receiveId: "oc_1", receiveIdType: "chat_id" }) !== "oc_1") throw new Error();
 * if (laneOf({ kind: "create", receiveId: "ou_1", receiveIdType: "open_id" }) !== "open_id:ou_1") throw new Error();
 * if (laneOf({ kind: "reply", targetId: "om_1", chatId: "oc_2", replyInThread: false }) !== "oc_2") throw new Error();
 * ```
 */
export function laneOf(route: DeliveryRoute): string {
  if (route.kind === "reply") return route.chatId;
  return route.receiveIdType === "chat_id"
    ? route.receiveId
    : `${route.receiveIdType}:${route.receiveId}`;
}

/** Any thrown value as a `BridgeError` (a bug below us becomes `UNKNOWN`). */
function asBridgeError(err: unknown): BridgeError {
  if (err instanceof BridgeError) return err;
  return new BridgeError("UNKNOWN", err instanceof Error ? err.message : String(err), {
    cause: err,
  });
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
        const failure = asBridgeError(err);
        if (failure.code === "RATE_LIMITED") {
          const chatWide = CHAT_RATE_CODES.has(failure.context.providerCode ?? -1);
          scheduler.blockFor(
            failure.retryAfterSeconds ?? DEFAULT_RATE_LIMIT_PAUSE_SECONDS,
            chatWide ? { key: req.lane } : {},
          );
        }
        return { delivered, chunkCount, failure };
      } finally {
        done();
      }
    }
    return { delivered, chunkCount };
  }, { signal: req.signal });
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
