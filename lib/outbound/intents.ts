/**
 * What the send pipeline writes down about a send before its first chunk
 * (the store keeps it: `lib/store/intents.ts`), and the rules around it:
 * - the identity a repeat is recognised by: account, target and content
 *   (canonical JSON, the bytes of a file to upload, the idempotency key);
 * - how long Feishu's memory of a `uuid` is trusted (45 of its 60 minutes:
 *   the rest covers the send's own duration and clock drift);
 * - what start-up does with an intent a crash left open
 *   ({@link recoveryDecision}).
 * @module
 */

import { createHash } from "node:crypto";
import { canonicalJson } from "../core/mod.ts";
import type { FeishuMessage } from "../feishu/mod.ts";
import type { DeliveredChunk, IntentStore } from "../store/mod.ts";
import type { NormalisedContent, RecordContent } from "./types.ts";

/** Feishu keeps a `uuid` for one hour; an intent's uuids are reused only this long after it began. */
export const UUID_SAFE_MS = 45 * 60_000;

/** The intent calls the send pipeline makes (an {@link IntentStore} has them). */
export type IntentJournal = Pick<IntentStore, "open" | "delivered" | "settle" | "reusable">;

/** Where a send goes, as the intent keeps it (the pipeline's `SendTarget`). */
export type IntentTarget =
  | { kind: "create"; receiveId: string; receiveIdType: string }
  | {
    kind: "reply";
    chatId: string;
    messageId: string;
    replyInThread: boolean;
    storedThread: string | null;
  };

/** What the sent record is built from, stored as the intent's plan. */
export interface SendPlan {
  alias: string;
  target: IntentTarget;
  /** The normalised content without a path source's bytes. */
  content: NormalisedContent;
  placeholder: boolean;
}

/** The part of a Feishu answer a sent record needs. */
export type SentChunk = Pick<
  FeishuMessage,
  "messageId" | "chatId" | "threadId" | "rootId" | "parentId" | "createTime"
>;

/**
 * The identity of a send: two sends with the same one are the same logical
 * message (a repeat).
 *
 * @example
 * ```ts
 * import { sendIdentity } from "./intents.ts";
 * const target = { kind: "create" as const, receiveId: "oc_1", receiveIdType: "chat_id" };
 * const a = sendIdentity({ account: "main", target, content: { type: "text", text: "hi" } });
 * if (a !== sendIdentity({ account: "main", target, content: { text: "hi", type: "text" } })) throw new Error();
 * if (a === sendIdentity({ account: "main", target, content: { type: "text", text: "ho" } })) throw new Error();
 * ```
 */
export function sendIdentity(spec: {
  account: string;
  target: IntentTarget;
  content: RecordContent;
  idempotencyKey?: string;
  upload?: Uint8Array;
}): string {
  const t = spec.target;
  const where = t.kind === "create"
    ? ["create", t.receiveIdType, t.receiveId]
    : ["reply", t.messageId, t.replyInThread];
  const hash = createHash("sha256").update(
    canonicalJson([spec.account, where, spec.content, spec.idempotencyKey ?? null]),
  );
  if (spec.upload) hash.update(spec.upload);
  return hash.digest("hex");
}

/** A delivered chunk as the intent stores it. */
export function storedChunk(index: number, m: SentChunk): DeliveredChunk {
  return {
    index,
    message_id: m.messageId,
    chat_id: m.chatId,
    thread_id: m.threadId,
    root_id: m.rootId,
    parent_id: m.parentId,
    create_time: m.createTime,
  };
}

/** A stored chunk as the sent record reads it. */
export function sentChunk(c: DeliveredChunk): SentChunk {
  return {
    messageId: c.message_id,
    chatId: c.chat_id,
    threadId: c.thread_id,
    rootId: c.root_id,
    parentId: c.parent_id,
    createTime: c.create_time,
  };
}

/**
 * What start-up does with an intent a crash left `open`:
 * - `close`: its sent record is there (the crash came after it): settle it;
 * - `finish`: still within {@link UUID_SAFE_MS}: send every chunk again under
 *   its uuid (Feishu answers those it has) and record the result;
 * - `partial`: too old to trust the uuids: record what was delivered;
 * - `drop`: too old and nothing known delivered: nothing to record.
 *
 * @example
 * ```ts
 * import { recoveryDecision, UUID_SAFE_MS } from "./intents.ts";
 * const intent = { createdAt: 0, delivered: 2 };
 * if (recoveryDecision(intent, { now: 1000, recorded: false }) !== "finish") throw new Error();
 * if (recoveryDecision(intent, { now: UUID_SAFE_MS, recorded: false }) !== "partial") throw new Error();
 * ```
 */
export function recoveryDecision(
  intent: { createdAt: number; delivered: number },
  at: { now: number; recorded: boolean },
): "close" | "finish" | "partial" | "drop" {
  if (at.recorded) return "close";
  if (at.now - intent.createdAt < UUID_SAFE_MS) return "finish";
  return intent.delivered > 0 ? "partial" : "drop";
}
