/**
 * One card sent on the bridge's own behalf (a Task Card, a local command's
 * answer, an approval card): one body through the account's outbox, under a
 * uuid derived from `key`, so a send repeated after a crash never makes a
 * second card. Returns the delivered message and its sent record; the
 * caller records it (or not) in the conversation log.
 * @module
 */

import { BridgeError, formatCompoundId } from "../core/mod.ts";
import type { FeishuMessage } from "../feishu/mod.ts";
import type { SentMessageRecord } from "../store/mod.ts";
import type { DeliveryRoute } from "./deliver.ts";
import { chunkUuid } from "./idempotency.ts";
import type { Outbox } from "./outbox.ts";
import { recipientOf, sentRecord } from "./results.ts";
import type { Priority } from "./scheduler.ts";
import type { JsonObject } from "./types.ts";
import { wireBody } from "./wire.ts";

/** Whose card it is: the account's alias and outbox. */
export interface CardSender {
  alias: string;
  outbox: Pick<Outbox, "deliver">;
}

/** Options of {@link sendCard}. */
export interface SendCardOptions {
  /** Derives the uuid: the same key never sends a second card. */
  key: string;
  priority: Priority;
  /** The record's text (what the card says, in short). */
  text: string;
  /** Marks the record as the bridge's own bookkeeping (hidden from every action). */
  mark?: "task_card" | "local_command";
  /** Now (ms): the record's date when Feishu gave no create time. */
  now(): number;
}

/** A card that was delivered, with its sent record. */
export interface SentCard {
  message: FeishuMessage;
  record: SentMessageRecord;
}

/** Sends `card` to `route`; throws the classified error when nothing was delivered. */
export async function sendCard(
  sender: CardSender,
  route: DeliveryRoute,
  card: JsonObject,
  options: SendCardOptions,
): Promise<SentCard> {
  const out = await sender.outbox.deliver({
    route,
    bodies: [wireBody("interactive", card)],
    uuids: [chunkUuid({ account: sender.alias, idempotencyKey: options.key, index: 0 })],
    priority: options.priority,
  });
  const message = out.delivered[0];
  if (!message) throw out.failure ?? new BridgeError("UNKNOWN", "nothing was sent");
  const chatId = message.chatId || (route.kind === "create" ? route.receiveId : route.chatId);
  const record = sentRecord({
    alias: sender.alias,
    chatId,
    to: recipientOf(route, chatId),
    providerIds: [message.messageId],
    content: {
      type: "card",
      recordContent: { type: "card", card },
      previewText: options.text,
      messageType: "interactive",
    },
    at: message.createTime ?? options.now(),
    provider: { root_id: message.rootId, parent_id: message.parentId, thread_id: message.threadId },
    reply: route.kind === "reply"
      ? {
        replyTo: formatCompoundId(sender.alias, route.chatId, route.targetId),
        replyInThread: route.replyInThread,
      }
      : undefined,
  });
  if (options.mark) record[options.mark] = true;
  return { message, record };
}
