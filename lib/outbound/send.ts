/**
 * The send pipeline, the one entry `send` and `reply` use: validation and
 * materialisation before any I/O (content rules, media roots, the server's
 * own files, sizes, byte limits, the idempotency key, the duplicate guard),
 * then the upload of a path source (once), the send's intent written down
 * (its bodies and uuids, `intents.ts`), each chunk through the sender's
 * outbox (noted in the intent as Feishu answers it), and the sent record and
 * result of what was delivered. A repeat of a send whose intent is not
 * settled as complete (still open, cut off by a crash, partial, unknown)
 * takes that intent over: same bodies, same uuids, so Feishu answers the
 * chunks it has instead of posting them again. The caller records the
 * message, then settles the intent (`settle`), and handles presence.
 * @module
 */

import type { ReceiveIdType } from "../feishu/mod.ts";
import type { SentMessageRecord } from "../store/mod.ts";
import { asBridgeError, BridgeError, type Failure, formatCompoundId } from "../core/mod.ts";
import { checkOutboundTextCap } from "./caps.ts";
import { normaliseOutbound, type OutboundInput } from "./content.ts";
import { type DeliveryRoute, UNANSWERED_RETRIES } from "./deliver.ts";
import { duplicateBlocked } from "./duplicate_guard.ts";
import { checkIdempotencyKey, chunkUuids } from "./idempotency.ts";
import {
  type IntentJournal,
  sendIdentity,
  type SendPlan,
  type SentChunk,
  storedChunk,
  UUID_SAFE_MS,
} from "./intents.ts";
import type { Degradation } from "./markdown/mod.ts";
import type { Outbox } from "./outbox.ts";
import { wrapProgressCard } from "./progress.ts";
import { partialDeliveryFailure, recipientOf, sendSuccess, sentRecord } from "./results.ts";
import type { OutboundRuntime } from "./runtime.ts";
import type { JsonObject, NormalisedContent } from "./types.ts";
import { checkMediaSize, type UploadApi, uploadMedia } from "./upload.ts";

/** What the pipeline needs besides the message: shared parts, limits and file rules. */
export interface SendContext {
  runtime: OutboundRuntime;
  /** Cap of one message's text, markdown or caption, in code points. */
  maxTextCodePoints: number;
  mediaRoots: readonly string[];
  /** The server's own files, never content. */
  ownFiles: { stateDir: string; configPath: string | null };
  newId(): string;
  now(): number;
  /** Where sends are written down before their first chunk; absent: not journaled. */
  intents?: IntentJournal;
}

/** Whose message it is: the account's alias, api (uploads) and outbox. */
export interface Sender {
  alias: string;
  api: UploadApi;
  outbox: Pick<Outbox, "deliver">;
}

/** Where the message goes: a new message, or a reply to a stored or known message. */
export type SendTarget =
  | { kind: "create"; receiveId: string; receiveIdType: ReceiveIdType }
  | {
    kind: "reply";
    chatId: string;
    messageId: string;
    replyInThread: boolean;
    /** The target's topic, when the store knows it. */
    storedThread: string | null;
  };

/** One message to send. */
export interface SendRequest {
  sender: Sender;
  target: SendTarget;
  input: OutboundInput;
  /** A progress card (`send` only). */
  placeholder?: boolean;
  idempotencyKey?: unknown;
  /** Checks of the caller's own that need no Feishu call: after the content's, before any I/O. */
  check?(): void;
}

/** What came of it. */
export type SendOutcome =
  | {
    kind: "sent";
    /** The chat the message landed in. */
    chatId: string;
    record: SentMessageRecord;
    /** The success, or the partial-delivery failure. */
    result: JsonObject | Failure;
    complete: boolean;
    degradations: Degradation[];
    /** Settles the send's intent: call once its record is written. */
    settle(): void;
  }
  /** Nothing was delivered; the first chunk's classified error. */
  | { kind: "failed"; chatId: string; error: BridgeError }
  /** The duplicate guard refused it before any I/O. */
  | { kind: "blocked"; result: Failure };

/** Stands in for an upload's key so a media message can be measured before the upload. */
const PROVISIONAL_KEY = "img_v3_provisional_" + "0".repeat(45);

/**
 * The content as the planner needs it: without the bytes of a path source,
 * which materialisation never reads (and a worker need not be sent).
 */
export function forPlanning(content: NormalisedContent): NormalisedContent {
  const upload = content.media?.upload;
  if (upload === undefined) return content;
  return {
    ...content,
    media: { ...content.media!, upload: { ...upload, bytes: new Uint8Array() } },
  };
}

export function routeOf(target: SendTarget): DeliveryRoute {
  return target.kind === "create"
    ? { kind: "create", receiveId: target.receiveId, receiveIdType: target.receiveIdType }
    : {
      kind: "reply",
      targetId: target.messageId,
      chatId: target.chatId,
      replyInThread: target.replyInThread,
    };
}

/**
 * Sends one logical message. Throws `INVALID_ARGUMENT` (and nothing reaches
 * Feishu or disk) when validation fails; every outcome after the first
 * request is returned.
 */
export async function sendMessage(ctx: SendContext, req: SendRequest): Promise<SendOutcome> {
  const rt = ctx.runtime;
  const { sender, target } = req;
  const key = checkIdempotencyKey(req.idempotencyKey);
  checkOutboundTextCap(req.input, ctx.maxTextCodePoints);
  let content = await normaliseOutbound(req.input, {
    mediaRoots: ctx.mediaRoots,
    fs: rt.mediaFs,
    ownFiles: ctx.ownFiles,
  });
  checkMediaSize(content);
  if (req.placeholder) content = wrapProgressCard(content, { mode: "send" });
  const planned = forPlanning(content);
  const upload = content.media?.upload;
  const measured = await rt.planner.materialise(
    planned,
    upload ? { mediaKey: PROVISIONAL_KEY } : {},
  );
  req.check?.();
  const identity = target.kind === "create"
    ? { account: sender.alias, receiveId: target.receiveId, content: content.recordContent }
    : null;
  if (identity && rt.guard.blocked(identity)) {
    return { kind: "blocked", result: duplicateBlocked() };
  }

  const knownChat = target.kind === "reply"
    ? target.chatId
    : target.receiveIdType === "chat_id"
    ? target.receiveId
    : "";
  const plan: SendPlan = {
    alias: sender.alias,
    target,
    // The record never needs the upload: a stored plan holds no path or bytes.
    content: planned.media
      ? { ...planned, media: { ...planned.media, upload: undefined } }
      : planned,
    placeholder: req.placeholder === true,
  };
  const journal = ctx.intents;
  let intentId: string | null = null;
  const settle = (state: "done" | "incomplete") => {
    try {
      if (intentId !== null) journal?.settle(sender.alias, intentId, state);
    } catch {
      // bookkeeping: an intent left open is settled at the next start, nothing posted twice
    }
  };
  let outcome;
  try {
    let bodies = measured.bodies;
    let uuids: readonly string[];
    const intentKey = journal
      ? sendIdentity({
        account: sender.alias,
        target,
        content: content.recordContent,
        idempotencyKey: key,
        upload: upload?.bytes,
      })
      : "";
    const reused = journal?.reusable(sender.alias, intentKey, ctx.now() - UUID_SAFE_MS) ?? null;
    if (reused) {
      // A repeat: the first attempt's bodies (its upload included) and uuids.
      intentId = reused.id;
      journal!.settle(sender.alias, reused.id, "open");
      ({ bodies, uuids } = reused);
    } else {
      if (upload !== undefined) {
        const mediaKey = await uploadMedia(sender.api, upload);
        bodies = (await rt.planner.materialise(planned, { mediaKey })).bodies;
      }
      uuids = chunkUuids(
        { account: sender.alias, idempotencyKey: key, count: bodies.length },
        { newId: ctx.newId },
      );
      if (journal) {
        intentId = ctx.newId();
        const plain = plan as unknown as Record<string, unknown>;
        journal.open({
          account: sender.alias,
          id: intentId,
          identity: intentKey,
          plan: plain,
          bodies,
          uuids,
        });
      }
    }
    const id = intentId;
    outcome = await sender.outbox.deliver({
      route: routeOf(target),
      bodies,
      uuids,
      onDelivered: id === null
        ? undefined
        : (k, m) => journal!.delivered(sender.alias, id, storedChunk(k, m)),
    });
  } catch (err) {
    settle("incomplete");
    return { kind: "failed", chatId: knownChat, error: asBridgeError(err) };
  }
  const last = outcome.delivered.at(-1);
  if (last === undefined) {
    settle("incomplete");
    const error = outcome.unknown ? unansweredError(outcome.failure!) : outcome.failure!;
    return { kind: "failed", chatId: knownChat, error };
  }
  if (identity) rt.guard.record(identity);
  const complete = outcome.failure === undefined;
  return {
    kind: "sent",
    degradations: measured.degradations,
    settle: () => settle(complete ? "done" : "incomplete"),
    ...sentOutcome(plan, outcome.delivered, {
      at: ctx.now(),
      chunkCount: outcome.chunkCount,
      failure: outcome.failure,
      unknown: outcome.unknown,
      fallbackChat: knownChat,
    }),
  };
}

/** The error of a first chunk Feishu never answered, however often it was tried. */
function unansweredError(err: BridgeError): BridgeError {
  return new BridgeError(
    err.code,
    `${err.message} (${1 + UNANSWERED_RETRIES} tries under one uuid). Repeating the ` +
      "same call unchanged within 45 minutes reuses that uuid, so it cannot arrive twice.",
    { retryable: err.retryable, retryAfterSeconds: err.retryAfterSeconds, context: err.context },
  );
}

/** The record and result of what was delivered (at least one chunk). */
export function sentOutcome(
  plan: SendPlan,
  messages: readonly SentChunk[],
  more: {
    /** The clock, for a record whose first chunk has no create time. */
    at: number;
    chunkCount: number;
    failure?: BridgeError;
    unknown?: boolean;
    fallbackChat: string;
  },
): { chatId: string; record: SentMessageRecord; result: JsonObject | Failure; complete: boolean } {
  const { alias, target, content } = plan;
  const last = messages.at(-1)!;
  const chatId = last.chatId || more.fallbackChat ||
    (target.kind === "create" ? target.receiveId : target.chatId);
  const reply = target.kind === "reply"
    ? {
      replyTo: formatCompoundId(alias, target.chatId, target.messageId),
      replyInThread: target.replyInThread,
    }
    : undefined;
  const threadId = target.kind === "reply"
    ? last.threadId ?? (target.replyInThread ? target.storedThread : null)
    : last.threadId;
  const route = routeOf(target as SendTarget);
  const record = sentRecord({
    alias,
    chatId,
    to: recipientOf(route, chatId),
    providerIds: messages.map((m) => m.messageId),
    content,
    // Feishu's create time of the first chunk, else the clock.
    at: messages[0]?.createTime ?? more.at,
    placeholder: plan.placeholder,
    provider: { root_id: last.rootId, parent_id: last.parentId, thread_id: threadId },
    reply,
    partial: more.failure
      ? { chunkCount: more.chunkCount, error: more.failure, unknown: more.unknown }
      : undefined,
  });
  const ids = record.message_ids;
  const contentType = content.type;
  const replyInThread = reply?.replyInThread;
  const result = more.failure
    ? partialDeliveryFailure({
      error: more.failure,
      deliveredIds: ids,
      chunkCount: more.chunkCount,
      contentType,
      threadId,
      replyInThread,
      unknown: more.unknown,
    })
    : sendSuccess({
      messageIds: ids,
      contentType,
      threadId,
      replyInThread,
      placeholder: plan.placeholder,
    });
  return { chatId, record, result, complete: more.failure === undefined };
}
