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
import type { ConversationLog } from "../conversation/mod.ts";
import { type DeliveryRoute, PRIORITY, sendCard, wireBody } from "../outbound/mod.ts";
import { stopTyping } from "../presence/mod.ts";
import { routeKey, type Store, type TaskCardRoute } from "../store/mod.ts";
import { taskCardWrapper } from "../../cards/mod.ts";
import type { Request } from "./done.ts";
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

  forget(route: TaskCardRoute): void {
    this.#latest.delete(routeKey(route));
  }
}

/** What the transport needs. */
export interface FeishuTransportDeps {
  accounts: ReadonlyMap<string, Account>;
  store: Store;
  latest: LatestMessages;
  /** Where the sent cards are recorded (hidden from every action). */
  conversation: ConversationLog;
  now(): number;
  log: Logger;
  /** The card's title at the time of a write (the agent's name, localized). */
  title?(): string;
  /**
   * The card the route had before its binding was dropped (`/taskcard off`,
   * retention), if any: a card sent afresh then gets a uuid of its own
   * instead of the one of the route's first card, which Feishu would answer
   * with that old card.
   */
  dropped?(route: TaskCardRoute): string | null;
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
  const card = (text: string) => taskCardWrapper(text, deps.title?.());
  const body = (text: string) => wireBody("interactive", card(text));
  const firstKey = (route: TaskCardRoute) => {
    const before = deps.dropped?.(route) ?? null;
    return before === null ? "first" : `after:${before}`;
  };

  return {
    binding(route) {
      // A gone chat's card cannot be edited or replaced: its binding goes, unwritten.
      if (store.goneChats.get(route.account, route.chatId)) {
        store.taskCards.deleteChat(route.account, route.chatId);
        return { state: "none" };
      }
      return store.taskCards.get(route);
    },
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
      if (route.threadId === null) {
        target = { kind: "create", receiveId: route.chatId, receiveIdType: "chat_id" };
      } else {
        // A topic's card is a reply in the topic: it needs a message of the topic to answer.
        const anchor = latest.get(route);
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
      let sent;
      try {
        sent = await sendCard(account, target, card(text), {
          key: `taskcard:${routeKey(route)}:${replaces ?? firstKey(route)}`,
          priority: PRIORITY.update,
          text,
          mark: "task_card",
          now: deps.now,
        });
      } catch (err) {
        const code = err instanceof BridgeError ? err.code : null;
        return {
          kind: "failed",
          error: `${DELIVERY_FAILED}: ${reason(err)}`,
          indeterminate: code === "SEND_TIMEOUT" || code === "UNKNOWN",
        };
      }
      const { message, record } = sent;
      record.thread_id ??= route.threadId ?? undefined;
      try {
        deps.conversation.record(route.account, { kind: "sent", record });
      } catch (err) {
        deps.log.warn("task card record not saved", { id: record.id, error: reason(err) });
      }
      latest.note(route, message.messageId);
      return { kind: "sent", residentId: record.id };
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

/**
 * Marks a finished request with a `DONE` reaction on its message and takes
 * the chat's Typing away (the agent may have finished without answering
 * there); true when the reaction went out.
 */
export async function reactDone(
  account: Account,
  store: Store,
  log: Logger,
  r: Request,
): Promise<boolean> {
  let reacted = false;
  try {
    await account.outbox.react({
      chatId: r.chatId,
      messageId: r.messageId,
      emojiType: "DONE",
      priority: PRIORITY.presence,
      once: `done:${r.messageId}`,
    });
    reacted = true;
  } catch (err) {
    log.debug("done reaction failed", { message: r.messageId, error: String(err) });
  }
  stopTyping({ account, typing: store.typing, log }, r.chatId);
  return reacted;
}
