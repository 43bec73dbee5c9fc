/**
 * The outbox of one app: every Feishu write the bridge makes goes through it
 * — the agent's sends, replies, edits, deletes and reactions, the automatic
 * `OK` / `Typing` / `THUMBSUP` reactions, and cards the server sends on its
 * own. It owns the app's pacing scheduler, so a rate limit answered to one app
 * never pauses another, and it puts every write to one conversation in one
 * lane, whatever id the caller named it by (a chat id, a user's open_id, a
 * message of that chat).
 *
 * Four guarantees beyond pacing:
 * - priorities: waiting writes to one conversation start by
 *   {@link PRIORITY} (answer, then update, then presence);
 * - coalescing: an edit marked `coalesce` that is still waiting is replaced
 *   by a newer edit of the same message, so only the latest content is sent;
 * - once-only writes: a reaction with a `once` key is recorded in a durable
 *   ledger; a replay finds it there, and a replay after a crash between the
 *   call and the ledger entry looks the reaction up on Feishu before adding
 *   one. (Messages the server sends on its own get the same guarantee from a
 *   uuid derived from the event they answer.)
 * - gone chats: a write to a chat dissolved or left by the bot is refused
 *   before any request, when asked and again at its turn (chat_gone.ts).
 *
 * Quota accounting needs nothing here: the outbox only calls the account's
 * {@link FeishuApi}, whose HTTP instance counts every request it sends
 * (the look-up before a once-only reaction included), and a write the
 * outbox holds back or coalesces away is, rightly, never counted. Pacing and
 * priorities never look at the quota: answers are never delayed by it.
 * @module
 */

import type { Clock } from "../core/mod.ts";
import { chatGoneError, type GoneChats, isChatGoneRefusal, saysDissolved } from "./chat_gone.ts";
import type { FeishuApi } from "../feishu/mod.ts";
import {
  deliverChunks,
  type DeliveryOutcome,
  type DeliveryRequest,
  type DeliveryRoute,
  pauseAfterRateLimit,
  whileUnanswered,
} from "./deliver.ts";
import { OutboundScheduler, PRIORITY, type Priority } from "./scheduler.ts";
import type { WireBody } from "./types.ts";

/** The durable ledger of once-only writes (the store implements it). */
export interface WriteLedger {
  /** The write's state: `pending` once begun, `done` with its result once answered. */
  get(key: string): { state: "pending" | "done"; result: string | null } | null;
  begin(key: string): void;
  finish(key: string, result: string | null): void;
  /** Drops an entry: the write it recorded was undone, so a later one may happen again. */
  forget(key: string): void;
}

/** Options of {@link createOutbox}. */
export interface OutboxOptions {
  api: FeishuApi;
  clock: Clock;
  ledger: WriteLedger;
  /** The p2p chat of a user, when the store knows it (puts sends by open_id in the chat's lane). */
  p2pChatOf?: (openId: string) => string | null;
  /** Chats gone (dissolved, bot removed): every write there is refused before any request. */
  gone?: GoneChats;
  /** Writes per second to one conversation (Feishu: 5). */
  perChatPerSecond?: number;
  /** Writes per second for the whole app (Feishu: 50). */
  appPerSecond?: number;
}

/** What every single write names: the conversation it lands in and its urgency. */
export interface WriteTarget {
  /** The chat the message belongs to (the lane). */
  chatId: string;
  messageId: string;
  priority?: Priority;
  signal?: AbortSignal;
}

/** How an edit ended: sent, or replaced by a newer edit before it went out. */
export type EditOutcome = "sent" | "coalesced";

/** The outbox of one app. */
export interface Outbox {
  /** One logical message's chunks, in order, holding the conversation's lane. */
  deliver(req: {
    route: DeliveryRoute;
    bodies: readonly WireBody[];
    uuids: readonly string[];
    priority?: Priority;
    signal?: AbortSignal;
    /** Told of each chunk as Feishu answers it. */
    onDelivered?: DeliveryRequest["onDelivered"];
  }): Promise<DeliveryOutcome>;
  /** Edits one message (PUT for text/post, PATCH for cards). */
  edit(
    req: WriteTarget & { body: WireBody; method: "PUT" | "PATCH"; coalesce?: boolean },
  ): Promise<EditOutcome>;
  delete(req: WriteTarget): Promise<void>;
  /** Adds a reaction; with `once`, at most one reaction per key ever. Returns its id. */
  react(req: WriteTarget & { emojiType: string; once?: string }): Promise<string>;
  /**
   * Removes a reaction; with `once`, the key's reaction counts as gone, so a
   * later `react` with that key adds one again.
   */
  unreact(req: WriteTarget & { reactionId: string; once?: string }): Promise<void>;
  /** The lane a route's messages go in. */
  laneOf(route: DeliveryRoute): string;
  /** Throws `TARGET_REVOKED` when the chat is gone (see chat_gone.ts); no request either way. */
  checkChat(chatId: string): void;
  /** Rejects waiting writes; later ones fail. */
  close(): void;
}

/** A coalescable edit not sent yet: the latest content and the caller who supplied it. */
interface PendingEdit {
  run: () => Promise<void>;
  settle: (outcome: EditOutcome) => void;
  fail: (reason: unknown) => void;
}

/**
 * Builds the outbox of one app.
 *
 * @example Three edits of one message before the first went out: only the latest is sent
 * ```ts
 * import { createOutbox } from "./outbox.ts";
 * import { ManualClock } from "../core/mod.ts";
 * import type { FeishuApi } from "../feishu/mod.ts";
 * const puts: string[] = [];
 * const api = { alias: "main", appId: "cli_0000000000000000",
 *   updateMessage: (r: { content: string }) => { puts.push(r.content); return Promise.resolve(); },
 * } as unknown as FeishuApi;
 * const ledger = { get: () => null, begin() {}, finish() {}, forget() {} };
 * const outbox = createOutbox({ api, clock: new ManualClock(0), ledger });
 * const edit = (text: string) => outbox.edit({ chatId: "oc_1", messageId: "om_1", method: "PUT",
 *   body: { msg_type: "text", content: text }, coalesce: true });
 * const [a, b, c] = [edit("1"), edit("2"), edit("3")];
 * const outcomes = await Promise.all([a, b, c]);
 * if (outcomes.join() !== "coalesced,coalesced,sent" || puts.join() !== "3") throw new Error(outcomes.join());
 * outbox.close();
 * ```
 */
export function createOutbox(options: OutboxOptions): Outbox {
  const { api, ledger } = options;
  const scheduler = new OutboundScheduler({
    clock: options.clock,
    perChatPerSecond: options.perChatPerSecond,
    appPerSecond: options.appPerSecond,
  });
  // Users' p2p chats learned from our own sends (the store knows those they wrote from).
  const userChats = new Map<string, string>();
  const pendingEdits = new Map<string, PendingEdit>();
  // Once-only writes under way: a second caller with the key (a replay racing the
  // start-up resume, say) shares the first one's call instead of making its own.
  const onceInFlight = new Map<string, Promise<string>>();

  const laneOf = (route: DeliveryRoute): string => {
    if (route.kind === "reply") return route.chatId;
    if (route.receiveIdType === "chat_id") return route.receiveId;
    if (route.receiveIdType === "open_id") {
      const chat = userChats.get(route.receiveId) ?? options.p2pChatOf?.(route.receiveId);
      if (chat) return chat;
    }
    return `${route.receiveIdType}:${route.receiveId}`;
  };

  const checkChat = (chatId: string) => {
    const gone = options.gone?.get(chatId);
    if (gone) throw chatGoneError(gone);
  };
  /** After a failed write: Feishu's "dissolved" marks the lane's chat gone. */
  const noteFailure = (err: unknown, lane: string) => {
    // A lane is a chat id unless it is a `type:id` of a user not yet placed in a chat.
    if (saysDissolved(err) && !lane.includes(":")) {
      options.gone?.mark({ chatId: lane, reason: "dissolved", at: options.clock.now() });
    }
  };

  /** One API call in the target's lane; a rate limit pauses the lane or the app. */
  const single = <T>(
    target: WriteTarget,
    fallback: Priority,
    call: () => Promise<T>,
  ): Promise<T> => {
    try {
      checkChat(target.chatId);
    } catch (err) {
      return Promise.reject(err);
    }
    return scheduler.run(target.chatId, async (slot) => {
      const done = await slot(target.signal);
      try {
        // Asked again at its turn: a write queued before the chat went is dropped, unsent.
        checkChat(target.chatId);
        return await call();
      } catch (err) {
        pauseAfterRateLimit(scheduler, err, target.chatId);
        noteFailure(err, target.chatId);
        throw err;
      } finally {
        done();
      }
    }, { signal: target.signal, priority: target.priority ?? fallback });
  };

  async function reactOnce(
    target: WriteTarget & { emojiType: string },
    key: string,
  ): Promise<string> {
    const seen = ledger.get(key);
    if (seen?.state === "done" && seen.result) return seen.result;
    try {
      return await addOnce(target, key, seen);
    } catch (err) {
      // Never made in a gone chat: nothing is left for a later run to finish.
      if (isChatGoneRefusal(err)) ledger.forget(key);
      throw err;
    }
  }

  async function addOnce(
    target: WriteTarget & { emojiType: string },
    key: string,
    seen: ReturnType<WriteLedger["get"]>,
  ): Promise<string> {
    checkChat(target.chatId);
    if (seen?.state === "pending") {
      // A crash may have cut us off after Feishu added it: look before adding again.
      const existing = await single(
        target,
        PRIORITY.presence,
        () => api.listReactions(target.messageId, target.emojiType),
      ).then((rs) => rs.find((r) => r.operatorType === "app" && r.operatorId === api.appId));
      if (existing) {
        ledger.finish(key, existing.reactionId);
        return existing.reactionId;
      }
    } else ledger.begin(key);
    const id = await single(
      target,
      PRIORITY.presence,
      () => api.addReaction(target.messageId, target.emojiType),
    );
    ledger.finish(key, id);
    return id;
  }

  return {
    async deliver(req) {
      const lane = laneOf(req.route);
      const gone = lane.includes(":") ? null : options.gone?.get(lane);
      // Like any refusal, an outcome: nothing delivered.
      if (gone) {
        return { delivered: [], chunkCount: req.bodies.length, failure: chatGoneError(gone) };
      }
      const outcome = await deliverChunks({ api, scheduler }, {
        route: req.route,
        bodies: req.bodies,
        uuids: req.uuids,
        onDelivered: req.onDelivered,
        lane,
        signal: req.signal,
        priority: req.priority ?? PRIORITY.answer,
      });
      if (outcome.failure) noteFailure(outcome.failure, lane);
      const chat = outcome.delivered.at(-1)?.chatId;
      if (chat && req.route.kind === "create" && req.route.receiveIdType === "open_id") {
        userChats.set(req.route.receiveId, chat);
      }
      return outcome;
    },
    edit(req) {
      // A card PATCH replaces the whole content: repeating one Feishu did not answer is harmless.
      const call = () =>
        req.method === "PATCH"
          ? whileUnanswered(() =>
            api.patchMessage({ messageId: req.messageId, content: req.body.content })
          )
          : api.updateMessage({
            messageId: req.messageId,
            msgType: req.body.msg_type,
            content: req.body.content,
          });
      if (!req.coalesce) return single(req, PRIORITY.answer, call).then(() => "sent" as const);
      const waiting = pendingEdits.get(req.messageId);
      if (waiting) {
        // Not sent yet: the newest content takes its place; the caller it replaces is told.
        waiting.run = call;
        waiting.settle("coalesced");
        return new Promise<EditOutcome>((resolve, reject) => {
          waiting.settle = resolve;
          waiting.fail = reject;
        });
      }
      return new Promise<EditOutcome>((resolve, reject) => {
        const entry: PendingEdit = { run: call, settle: resolve, fail: reject };
        pendingEdits.set(req.messageId, entry);
        single(req, PRIORITY.update, () => {
          pendingEdits.delete(req.messageId);
          return entry.run();
        }).then(() => entry.settle("sent"), (err) => entry.fail(err));
      });
    },
    delete: (req) => single(req, PRIORITY.answer, () => api.deleteMessage(req.messageId)),
    react(req) {
      if (req.once === undefined) {
        return single(req, PRIORITY.answer, () => api.addReaction(req.messageId, req.emojiType));
      }
      const key = req.once;
      const running = onceInFlight.get(key);
      if (running) return running;
      const call = reactOnce(req, key).finally(() => onceInFlight.delete(key));
      onceInFlight.set(key, call);
      return call;
    },
    unreact: (req) => {
      // Gone from now on: a `react` with the key made after this call adds a new one.
      if (req.once !== undefined) ledger.forget(req.once);
      return single(req, PRIORITY.answer, () => api.removeReaction(req.messageId, req.reactionId));
    },
    laneOf,
    checkChat,
    close: () => scheduler.close(),
  };
}
