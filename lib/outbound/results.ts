/**
 * Pure builders for what `send` and `reply` return and store: the success
 * response, the partial-delivery failure and the sent record.
 * @module
 */

import {
  BridgeError,
  type Failure,
  failure,
  formatCompoundId,
  isoSeconds,
  toFailure,
} from "../core/mod.ts";
import type { SentMessageRecord } from "../store/mod.ts";
import type { DeliveryRoute } from "./deliver.ts";
import type { JsonObject, NormalisedContent } from "./types.ts";

/** A classified error as thrown (`BridgeError`) or already rendered (`Failure`). */
export type FailureLike = BridgeError | Failure;

/** The six-key failure shape of an error, whichever form it came in. */
export function asFailure(error: FailureLike): Failure {
  if (error instanceof BridgeError) return toFailure(error);
  return failure(error.error_code, error.error, {
    retryable: error.retryable,
    retryAfterSeconds: error.retry_after_seconds,
  });
}

/** One delivered chunk: 1-based index and compound id. */
export interface ChunkRef {
  index: number;
  message_id: string;
}

/**
 * Numbers chunk ids from 1.
 *
 * @example
 * ```ts
 * import { chunkRefs } from "./results.ts";
 * if (chunkRefs(["a:b:c"])[0]!.index !== 1) throw new Error();
 * ```
 */
export function chunkRefs(ids: readonly string[]): ChunkRef[] {
  return ids.map((message_id, i) => ({ index: i + 1, message_id }));
}

/** The sentence that tells the agent how to use a progress card it just created. */
export function progressHint(messageId: string): string {
  return `Progress card sent. Call feishu(action='edit', message_id='${messageId}', ` +
    "text=<next meaningful phase>) only when the phase changes, and send the final answer " +
    "separately with send or reply.";
}

/** Inputs of {@link sendSuccess}. */
export interface SendSuccessInput {
  /** Compound ids of the delivered chunks, in order (at least one). */
  messageIds: readonly string[];
  /** The normalised content type (`card` for progress cards). */
  contentType: string;
  /** The provider's thread id, when it reported one. */
  threadId?: string | null;
  /** Replies only: the `reply_in_thread` that was used. */
  replyInThread?: boolean;
  /** A progress card was sent: adds `placeholder: true` and the hint. */
  placeholder?: boolean;
}

/**
 * The success response of `send` / `reply`.
 *
 * @example
 * ```ts
 * import { sendSuccess } from "./results.ts";
 * const r = sendSuccess({ messageIds: ["main:oc_chat:om_1"], contentType: "text" });
 * if (r.status !== "sent" || r.chunk_count !== 1) throw new Error();
 * ```
 */
export function sendSuccess(input: SendSuccessInput): JsonObject {
  const ids = [...input.messageIds];
  const out: JsonObject = {
    status: "sent",
    message_id: ids[0],
    message_ids: ids,
    chunk_count: ids.length,
    chunks: chunkRefs(ids),
    content_type: input.contentType,
  };
  if (input.threadId) out.thread_id = input.threadId;
  if (input.replyInThread !== undefined) out.reply_in_thread = input.replyInThread;
  if (input.placeholder) {
    out.placeholder = true;
    out.hint = progressHint(ids[0]!);
  }
  return out;
}

/** Inputs of {@link partialDeliveryFailure}. */
export interface PartialDeliveryInput {
  /** The failed chunk's classified error. */
  error: FailureLike;
  /** Compound ids of the chunks delivered before it (at least one). */
  deliveredIds: readonly string[];
  /** Chunks planned in total. */
  chunkCount: number;
  contentType: string;
  threadId?: string | null;
  replyInThread?: boolean;
  /** Feishu never answered for the next chunk: it may have arrived. */
  unknown?: boolean;
}

/** The warning every partial result carries; it says how (not) to replay the action. */
export function partialWarning(delivered: number, total: number, unknown = false): string {
  const next = unknown
    ? `Feishu did not answer for chunk ${delivered + 1}: it may or may not have arrived.`
    : `chunk ${delivered + 1} failed.`;
  return `Only ${delivered} of ${total} chunks were delivered; ${next} ` +
    "Do not retry the whole action with other content or after 45 minutes: that duplicates the " +
    "delivered chunks (unless you pass the same idempotency_key). Repeating the same call " +
    "unchanged within 45 minutes reuses the chunks' uuids, so only what is missing is posted.";
}

/**
 * The failure returned when some chunks were delivered and one failed.
 *
 * @example
 * ```ts
 * import { BridgeError } from "../core/mod.ts";
 * import { partialDeliveryFailure } from "./results.ts";
 * const r = partialDeliveryFailure({
 *   error: new BridgeError("RATE_LIMITED", "slow down", { retryable: true, retryAfterSeconds: 2 }),
 *   deliveredIds: ["main:oc_1:om_1"],
 *   chunkCount: 3,
 *   contentType: "markdown",
 * });
 * if (r.failed_chunk_index !== 2 || !String(r.warning).includes("Do not retry the whole action")) throw new Error();
 * ```
 */
export function partialDeliveryFailure(input: PartialDeliveryInput): Failure {
  const ids = [...input.deliveredIds];
  const out: Failure = {
    ...asFailure(input.error),
    partial_delivery: true,
    message_id: ids[0],
    message_ids: ids,
    chunk_count: input.chunkCount,
    delivered_chunk_count: ids.length,
    ...nextChunk(ids.length, input.unknown),
    chunks: chunkRefs(ids),
    content_type: input.contentType,
    automatic_retry_allowed: false,
    warning: partialWarning(ids.length, input.chunkCount, input.unknown),
  };
  if (input.threadId) out.thread_id = input.threadId;
  if (input.replyInThread !== undefined) out.reply_in_thread = input.replyInThread;
  return out;
}

/** The chunk after the delivered ones: failed, or of unknown fate (`unknown_chunk_index`). */
function nextChunk(delivered: number, unknown = false): Record<string, number> {
  return unknown ? { unknown_chunk_index: delivered + 1 } : { failed_chunk_index: delivered + 1 };
}

/**
 * Whom a sent record says it went to: the receive id of a new message, the
 * chat of a reply.
 *
 * @example
 * ```ts
 * import { recipientOf } from "./results.ts";
 * const to = recipientOf({ kind: "reply", targetId: "om_1", chatId: "oc_1", replyInThread: false }, "oc_1");
 * if (to.receive_id !== "oc_1" || to.receive_id_type !== "chat_id") throw new Error();
 * ```
 */
export function recipientOf(
  route: DeliveryRoute,
  chatId: string,
): { receive_id: string; receive_id_type: string } {
  return route.kind === "create"
    ? { receive_id: route.receiveId, receive_id_type: route.receiveIdType }
    : { receive_id: chatId, receive_id_type: "chat_id" };
}

/** Inputs of {@link sentRecord}. */
export interface SentRecordInput {
  alias: string;
  /** The chat segment of the compound ids: the provider's chat id, else the receive id. */
  chatId: string;
  to: { receive_id: string; receive_id_type: string };
  /** Provider message ids of the delivered chunks, in order (at least one). */
  providerIds: readonly string[];
  content: NormalisedContent;
  /** Clock time of the send, in milliseconds. */
  at: number;
  placeholder?: boolean;
  /** From the last successful response; empty values are left out. */
  provider?: { root_id?: string | null; parent_id?: string | null; thread_id?: string | null };
  reply?: { replyTo: string; replyInThread: boolean };
  partial?: { chunkCount: number; error: FailureLike; unknown?: boolean };
}

/** The sent record of one logical message (partial deliveries and progress cards included). */
export function sentRecord(input: SentRecordInput): SentMessageRecord {
  const ids = input.providerIds.map((p) => formatCompoundId(input.alias, input.chatId, p));
  const date = isoSeconds(input.at);
  const status = input.placeholder ? "placeholder" : input.partial ? "partial" : "sent";
  const record: SentMessageRecord = {
    id: ids[0]!,
    feishu_message_id: input.providerIds[0]!,
    feishu_message_ids: [...input.providerIds],
    message_ids: ids,
    chunks: chunkRefs(ids),
    to: { ...input.to },
    chat_id: input.chatId,
    message_type: input.content.messageType,
    content: structuredClone(input.content.recordContent),
    text: input.content.previewText,
    sent_at: date,
    date,
    create_time_ms: Math.trunc(input.at),
    status,
  };
  if (input.placeholder) record.placeholder = true;
  if (input.partial) {
    const f = asFailure(input.partial.error);
    Object.assign(record, {
      partial_delivery: true,
      chunk_count: input.partial.chunkCount,
      delivered_chunk_count: ids.length,
      ...nextChunk(ids.length, input.partial.unknown),
      error: f.error,
      error_code: f.error_code,
      retryable: f.retryable,
      retry_after_seconds: f.retry_after_seconds,
      automatic_retry_allowed: false,
    });
  }
  if (input.content.mediaSummary) record.media = { ...input.content.mediaSummary };
  for (const key of ["root_id", "parent_id", "thread_id"] as const) {
    const v = input.provider?.[key];
    if (typeof v === "string" && v !== "") record[key] = v;
  }
  if (input.reply) {
    record.reply_to = input.reply.replyTo;
    record.reply_in_thread = input.reply.replyInThread;
  }
  return record;
}
