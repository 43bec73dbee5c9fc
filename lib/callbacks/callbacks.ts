/**
 * Card callbacks at run time, in two steps:
 *
 * 1. **The answer** (right after the intake commit, as the frame's ACK, so
 *    it never waits for agent work): a permission vote is decided there and
 *    answers with the updated approval card; a click by someone not allowed
 *    gets an error toast; a control button gets whatever the local-commands
 *    capability answers; a business click gets a short "sent" toast (or
 *    "too many clicks" when its user is over the wake limit).
 * 2. **The job** (in the chat's worker, in order with the chat's messages):
 *    a business click becomes one `card_action` record in the card's
 *    conversation and wakes the agent (at most 10 wakes per user per
 *    minute; see throttle.ts); a control click goes to
 *    the local-commands capability and never wakes anyone.
 *
 * Reserved values count only on their own cards: a vote only on the approval
 * card the relay sent for that request, in its chat; a control value only on
 * a control card (a local command's answer, as the store keeps it), in its
 * chat. The same value on any other card — one the agent sent, say — is a
 * business click like any other: the agent gets it as data. A click whose
 * callback names another chat than the one its card is known to be in is
 * dropped. A click whose handling fails because of its data (a RangeError,
 * TypeError or SyntaxError: the click path's I/O catches its own failures)
 * is recorded with a placeholder value at once instead of being retried.
 *
 * Replays are no-ops: the intake's dedupe (by Feishu event id) runs before
 * either step, and the record id is derived from the event id.
 * @module
 */

import type { Account } from "../account/mod.ts";
import { type Clock, isFeishuId, type Logger } from "../core/mod.ts";
import type { RawEnvelope } from "../feishu/mod.ts";
import type { ConversationLog } from "../conversation/mod.ts";
import { PermanentFailure } from "../journal/mod.ts";
import type { Store } from "../store/mod.ts";
import { type CardCallback, type JsonObject, readCallback } from "./project.ts";
import { buildCardActionRecord } from "./record.ts";
import { type ClickThrottle, createClickThrottle } from "./throttle.ts";
import {
  type ControlRequest,
  controlRequest,
  type PermissionVote,
  permissionVote,
} from "./reserved.ts";

/** What the local-commands capability gets of a control click. */
export interface ControlContext {
  account: Account;
  callback: CardCallback & { chatId: string };
  request: ControlRequest;
}

/** The local-commands capability, as card callbacks see it. */
export interface ControlHandler {
  /** The synchronous answer (a toast, or the updated card as `{card:{type:"raw",data}}`). */
  answer?(ctx: ControlContext): unknown | Promise<unknown>;
  /** The effect, in the chat's order. */
  handle(ctx: ControlContext): Promise<void>;
}

/** The permission relay, as card callbacks see it. */
export interface VoteHandler {
  /** The chat of an approval card the relay sent, by its message id; null for any other card. */
  approvalChat(account: Account, messageId: string): string | null;
  click(account: Account, cb: CardCallback, vote: PermissionVote): unknown | Promise<unknown>;
}

/** Options of {@link createCardCallbacks}. */
export interface CardCallbackOptions {
  store: Store;
  /** Where a business click is recorded and wakes the agent. */
  conversation: ConversationLog;
  clock: Clock;
  log: Logger;
  /** Control buttons: the local-commands capability. */
  control: ControlHandler;
  /** Approval votes: the permission relay, when it runs. */
  votes?: VoteHandler;
  /** How often one user's clicks wake the agent (default: throttle.ts). */
  throttle?: ClickThrottle;
}

/** Per-account counts for the status. */
export interface CallbackCounters {
  business: number;
  control: number;
  votes: number;
  refused: number;
  malformed: number;
  /** Business clicks recorded without a wake: their user was over the limit. */
  throttled: number;
  /** Clicks dropped because they named another chat than their card's. */
  misplaced: number;
  /** Clicks recorded with a placeholder because their data could not be handled. */
  unreadable: number;
}

/** The two steps, as the inbound seams take them. */
export interface CardCallbacks {
  answer(ctx: { account: Account; envelope: RawEnvelope }): unknown;
  handle(ctx: { account: Account; envelope: RawEnvelope }): Promise<void>;
  counters(alias: string): CallbackCounters;
}

/** The toast of a business click whose user is over the wake limit. */
export const TOO_MANY_CLICKS =
  "Too many clicks: this one is recorded, but it does not wake the agent.";

function toast(type: "info" | "success" | "warning" | "error", content: string) {
  return { toast: { type, content } };
}

/**
 * Whether an actor may use the account's cards: everyone when the account
 * admits everyone (no `allowed_users`, `access.dm` open); else the admitted
 * (owners, allowed users, paired people).
 */
function allowed(account: Account, openId: string): boolean {
  if (openId === "") return false;
  const restricted = (account.allowedUsers ?? []).length > 0 || account.access.dm !== "open";
  return !restricted || account.admits(openId);
}

/** A callback whose ids are safe to store and address (Feishu ids only). */
function routable(cb: CardCallback): cb is CardCallback & { chatId: string } {
  return cb.chatId !== null && isFeishuId(cb.chatId) && isFeishuId(cb.eventId) &&
    (cb.sourceMessageId === null || isFeishuId(cb.sourceMessageId)) &&
    (cb.threadId === null || isFeishuId(cb.threadId));
}

/**
 * Whether a failure in handling a click is the click's data's: the same on
 * every attempt. The click path's network and file I/O (names,
 * notifications) catch their own failures and the store throws plain
 * Errors, so these three come from what the click carries.
 */
export function isDataFailure(err: unknown): boolean {
  return err instanceof RangeError || err instanceof TypeError || err instanceof SyntaxError;
}

type Placed = CardCallback & { chatId: string };

/** What a click is, once its card is known. */
type Kind =
  | { kind: "vote"; vote: PermissionVote }
  | { kind: "control"; request: ControlRequest }
  | { kind: "business" };

/** Builds the card-callback capability. */
export function createCardCallbacks(options: CardCallbackOptions): CardCallbacks {
  const { store, log } = options;
  const throttle = options.throttle ?? createClickThrottle();
  const all = new Map<string, CallbackCounters>();
  const count = (alias: string) => {
    let c = all.get(alias);
    if (!c) {
      all.set(
        alias,
        c = {
          business: 0,
          control: 0,
          votes: 0,
          refused: 0,
          malformed: 0,
          throttled: 0,
          misplaced: 0,
          unreadable: 0,
        },
      );
    }
    return c;
  };

  /**
   * The click with its card's topic, or null when the card is known to be in
   * another chat than the callback names (then it files nowhere).
   */
  function place(account: Account, cb: Placed): Placed | null {
    const id = cb.sourceMessageId;
    const source = id ? store.records.chatOfFeishuMessage(account.alias, id) : null;
    const chat = source?.chatId ?? (id ? options.votes?.approvalChat(account, id) : null) ?? null;
    if (chat !== null && chat !== cb.chatId) return null;
    // A card in a topic belongs to that topic even when the callback does not name it.
    return { ...cb, threadId: cb.threadId ?? source?.threadId ?? null };
  }

  /** A reserved value counts only on its own card. */
  function kindOf(account: Account, cb: Placed): Kind {
    const vote = permissionVote(cb.action.value);
    const approval = cb.sourceMessageId && options.votes?.approvalChat(account, cb.sourceMessageId);
    if (vote && approval === cb.chatId) return { kind: "vote", vote };
    const request = controlRequest(cb.action.value);
    if (request && cb.sourceMessageId) {
      const card = store.records.sentMessage(account.alias, cb.sourceMessageId);
      if (card?.localCommand && card.chatId === cb.chatId) return { kind: "control", request };
    }
    return { kind: "business" };
  }

  const throttleKey = (account: Account, cb: CardCallback) =>
    `${account.alias}\u0000${cb.operator.open_id}`;
  const clickTime = (cb: CardCallback) => cb.atMs ?? options.clock.now();

  async function business(account: Account, cb: Placed) {
    const alias = account.alias;
    const atMs = clickTime(cb);
    const record = buildCardActionRecord(cb, {
      alias,
      fromName: cb.operator.name ?? await account.names.resolve(cb.operator.open_id),
      nowMs: atMs,
    });
    const existing = store.records.get(alias, record.id);
    if (existing?.kind === "card_action" && existing.record.throttled === true) return;
    if (!existing && !throttle.take(throttleKey(account, cb), atMs)) {
      record.throttled = true;
      options.conversation.record(alias, { kind: "card_action", record }, { atMs });
      count(alias).throttled++;
      log.info("feishu_card_action recorded without a wake: too many clicks", {
        account: alias,
        id: record.id,
      });
      return;
    }
    const outcome = await options.conversation.recordAndWake(
      account,
      { kind: "card_action", record },
      { atMs },
    );
    if (outcome === "replayed") return;
    count(alias).business++;
    log.info("feishu_card_action", { account: alias, id: record.id });
  }

  async function handleClick(account: Account, envelope: RawEnvelope): Promise<void> {
    const c = count(account.alias);
    const cb = readCallback(envelope);
    if (!cb || !routable(cb)) {
      c.malformed++;
      log.warn("card callback without a usable chat, card or event id dropped", {
        account: account.alias,
      });
      return;
    }
    const placed = place(account, cb);
    if (!placed) {
      c.misplaced++;
      log.warn("card callback naming another chat than its card's dropped", {
        account: account.alias,
        chat: cb.chatId,
      });
      return;
    }
    const kind = kindOf(account, placed);
    if (kind.kind === "vote") return; // decided when it was answered
    if (!placed.operator.open_id) {
      log.warn("card callback without an actor dropped", { account: account.alias });
      return;
    }
    if (!allowed(account, placed.operator.open_id)) {
      log.debug("card callback from an actor outside allowed_users dropped", {
        account: account.alias,
      });
      return;
    }
    if (kind.kind === "control") {
      c.control++;
      return await options.control.handle({ account, callback: placed, request: kind.request });
    }
    await business(account, placed);
  }

  /**
   * A click whose handling failed on its data: recorded (and waking, like
   * any click) with a placeholder value instead of what it carried. When not
   * even that can be done, the journal is told the job can never succeed.
   */
  async function unreadable(account: Account, envelope: RawEnvelope, cause: unknown) {
    const error = cause instanceof Error ? cause.name : "Error";
    const value: JsonObject = {
      unreadable: true,
      note: `The click could not be handled (${error}); what it sent was dropped.`,
    };
    try {
      const event = envelope.event as JsonObject;
      const stripped = { ...envelope, event: { ...event, action: { tag: "unknown", value } } };
      const cb = readCallback(stripped);
      if (!cb || !routable(cb) || !allowed(account, cb.operator.open_id)) return;
      const placed = place(account, cb);
      if (!placed) return;
      log.warn("card callback could not be handled; recorded with a placeholder", {
        account: account.alias,
        error,
      });
      count(account.alias).unreadable++;
      await business(account, placed);
    } catch (err) {
      if (!isDataFailure(err)) throw err;
      throw new PermanentFailure(`a card callback cannot be recorded: ${error}`, { cause: err });
    }
  }

  return {
    counters: (alias) => ({ ...count(alias) }),
    answer({ account, envelope }) {
      const cb = readCallback(envelope);
      if (!cb || !routable(cb)) return undefined;
      const placed = place(account, cb);
      if (!placed) return toast("error", "This card belongs to another chat.");
      const kind = kindOf(account, placed);
      if (kind.kind === "vote") {
        count(account.alias).votes++;
        return options.votes!.click(account, placed, kind.vote);
      }
      // An owner-only control button answers for itself (the not-owner toast): owners are
      // always admitted, so this lets no one else do anything.
      const ownersOnly = kind.kind === "control" && kind.request.command !== "help";
      if (!ownersOnly && !allowed(account, placed.operator.open_id)) {
        count(account.alias).refused++;
        return toast("error", "You are not allowed to use this card.");
      }
      if (kind.kind === "control") {
        if (!options.control.answer) return undefined;
        return options.control.answer({ account, callback: placed, request: kind.request });
      }
      return throttle.peek(throttleKey(account, placed), clickTime(placed))
        ? toast("info", "Sent to the agent.")
        : toast("warning", TOO_MANY_CLICKS);
    },
    async handle({ account, envelope }) {
      try {
        await handleClick(account, envelope);
      } catch (err) {
        if (!isDataFailure(err)) throw err; // transient: the journal retries
        await unreadable(account, envelope, err);
      }
    },
  };
}
