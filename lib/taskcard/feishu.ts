/**
 * The Task Card's transport on Feishu: one app's outbox for every write (at
 * card-update priority, so the agent's own messages go first), the store's
 * bindings, and the routes' latest seen messages. A sent card is written as
 * a hidden sent record (`task_card: true`), invisible to every action, and
 * becomes its route's latest message. Each send has a uuid derived from the
 * card it replaces, so a crash between the send and the binding never adds a
 * second card when the delivery runs again.
 * @module
 */

import type { Account } from "../account/mod.ts";
import { BridgeError, formatCompoundId, type Logger, parseCompoundId } from "../core/mod.ts";
import { chunkUuids, type DeliveryRoute, PRIORITY, wireBody } from "../outbound/mod.ts";
import { routeKey, type Store, type TaskCardRoute } from "../store/mod.ts";
import { taskCardWrapper } from "../../cards/mod.ts";
import { DELIVERY_FAILED, type ResidentTransport } from "./resident.ts";

/** The latest message seen in each route (process memory: a restart forgets it). */
export class LatestMessages {
  readonly #latest = new Map<string, string>();

  note(route: TaskCardRoute, messageId: string): void {
    this.#latest.set(routeKey(route), formatCompoundId(route.account, route.chatId, messageId));
  }

  get(route: TaskCardRoute): string | null {
    return this.#latest.get(routeKey(route)) ?? null;
  }
}

/** What the transport needs. */
export interface FeishuTransportDeps {
  accounts: ReadonlyMap<string, Account>;
  store: Store;
  latest: LatestMessages;
  now(): number;
  log: Logger;
}

/** Codes that say the card is not there any more. */
const GONE = new Set(["TARGET_REVOKED", "NOT_FOUND"]);

function reason(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function isGone(err: unknown): boolean {
  return err instanceof BridgeError && GONE.has(err.code);
}

/** Builds the transport. */
export function feishuTransport(deps: FeishuTransportDeps): ResidentTransport {
  const { store, latest } = deps;
  const accountOf = (route: TaskCardRoute): Account => {
    const a = deps.accounts.get(route.account);
    if (!a) throw new BridgeError("INVALID_ARGUMENT", `Unknown account '${route.account}'`);
    return a;
  };
  const body = (text: string) => wireBody("interactive", taskCardWrapper(text));

  return {
    binding: (route) => store.taskCards.get(route),
    superseded(route, residentId) {
      const seen = latest.get(route);
      return seen !== null && seen !== residentId;
    },
    async edit(route, residentId, text) {
      try {
        const { messageId } = parseCompoundId(residentId);
        await accountOf(route).outbox.edit({
          chatId: route.chatId,
          messageId,
          body: body(text),
          method: "PATCH",
          priority: PRIORITY.update,
          coalesce: true,
        });
        return { kind: "ok" };
      } catch (err) {
        if (isGone(err)) return { kind: "gone" };
        return { kind: "failed", error: `${DELIVERY_FAILED}: ${reason(err)}` };
      }
    },
    async delete(route, residentId) {
      if (!store.taskCards.contains(residentId)) return { kind: "gone" };
      try {
        const { messageId } = parseCompoundId(residentId);
        await accountOf(route).outbox.delete({
          chatId: route.chatId,
          messageId,
          priority: PRIORITY.update,
        });
        return { kind: "ok" };
      } catch (err) {
        if (isGone(err)) return { kind: "gone" };
        return { kind: "failed", error: `${DELIVERY_FAILED}: ${reason(err)}` };
      }
    },
    async send(route, text, replaces) {
      let account: Account;
      try {
        account = accountOf(route);
      } catch (err) {
        return { kind: "failed", error: `${DELIVERY_FAILED}: ${reason(err)}` };
      }
      let target: DeliveryRoute;
      let anchor: string | null = null;
      if (route.threadId === null) {
        target = { kind: "create", receiveId: route.chatId, receiveIdType: "chat_id" };
      } else {
        // A topic's card is a reply in the topic: it needs a message of the topic to answer.
        anchor = latest.get(route);
        if (!anchor) {
          return {
            kind: "failed",
            error: `${DELIVERY_FAILED}: no message of the topic seen yet to reply to`,
          };
        }
        target = {
          kind: "reply",
          targetId: parseCompoundId(anchor).messageId,
          chatId: route.chatId,
          replyInThread: true,
        };
      }
      const card = taskCardWrapper(text);
      const out = await account.outbox.deliver({
        route: target,
        bodies: [wireBody("interactive", card)],
        uuids: chunkUuids({
          account: route.account,
          idempotencyKey: `taskcard:${routeKey(route)}:${replaces ?? "first"}`,
          count: 1,
        }, { newId: () => crypto.randomUUID() }),
        priority: PRIORITY.update,
      });
      const sent = out.delivered[0];
      if (!sent) {
        const code = out.failure?.code;
        return {
          kind: "failed",
          error: `${DELIVERY_FAILED}: ${out.failure?.message ?? "nothing was sent"}`,
          indeterminate: code === "SEND_TIMEOUT" || code === "UNKNOWN",
        };
      }
      const id = formatCompoundId(route.account, route.chatId, sent.messageId);
      const at = sent.createTime ?? deps.now();
      try {
        store.records.insert({
          account: route.account,
          id,
          chatId: route.chatId,
          threadId: sent.threadId ?? route.threadId,
          feishuMessageId: sent.messageId,
          direction: "outgoing",
          kind: "sent",
          status: "sent",
          createTime: Math.floor(at / 1000) * 1000,
          hidden: true,
          record: {
            id,
            task_card: true,
            feishu_message_id: sent.messageId,
            feishu_message_ids: [sent.messageId],
            message_ids: [id],
            chunks: [{ index: 1, message_id: id }],
            to: { receive_id: route.chatId, receive_id_type: "chat_id" },
            chat_id: route.chatId,
            message_type: "interactive",
            content: { type: "card", card },
            text,
            sent_at: new Date(at).toISOString(),
            date: new Date(at).toISOString(),
            status: "sent",
            ...(route.threadId === null ? {} : {
              thread_id: sent.threadId ?? route.threadId,
              reply_to: anchor ?? undefined,
              reply_in_thread: true,
            }),
          },
          chunkIds: [id],
        });
      } catch (err) {
        deps.log.warn("task card record not saved", { id, error: reason(err) });
      }
      latest.note(route, sent.messageId);
      return { kind: "sent", residentId: id };
    },
    persist(route, residentId) {
      try {
        store.taskCards.set(route, residentId);
        return true;
      } catch (err) {
        deps.log.error("task card binding not saved", {
          route: routeKey(route),
          error: reason(err),
        });
        return false;
      }
    },
  };
}
