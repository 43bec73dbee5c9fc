/**
 * Card callbacks at run time, in two steps:
 *
 * 1. **The answer** (right after the intake commit, as the frame's ACK, so
 *    it never waits for agent work): a permission vote is decided there and
 *    answers with the updated approval card; a click by someone not allowed
 *    gets an error toast; a control button gets whatever the local-commands
 *    capability answers; a business click gets a short "sent" toast.
 * 2. **The job** (in the chat's worker, in order with the chat's messages):
 *    a business click becomes one `card_action` record in the card's
 *    conversation and wakes the agent; a control click goes to the
 *    local-commands capability and never wakes anyone.
 *
 * Replays are no-ops: the intake's dedupe (by Feishu event id) runs before
 * either step, and the record id is derived from the event id.
 * @module
 */

import type { Account } from "../account/mod.ts";
import { type Clock, isFeishuId, type Logger } from "../core/mod.ts";
import type { RawEnvelope } from "../feishu/mod.ts";
import type { ConversationLog } from "../conversation/mod.ts";
import type { Store } from "../store/mod.ts";
import { type CardCallback, readCallback } from "./project.ts";
import { buildCardActionRecord } from "./record.ts";
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
}

/** Per-account counts for the status. */
export interface CallbackCounters {
  business: number;
  control: number;
  votes: number;
  refused: number;
  malformed: number;
}

/** The two steps, as the inbound seams take them. */
export interface CardCallbacks {
  answer(ctx: { account: Account; envelope: RawEnvelope }): unknown;
  handle(ctx: { account: Account; envelope: RawEnvelope }): Promise<void>;
  counters(alias: string): CallbackCounters;
}

function toast(type: "info" | "success" | "error", content: string) {
  return { toast: { type, content } };
}

/** Whether an actor may use the account's cards (everyone when `allowed_users` is unset). */
function allowed(account: Account, openId: string): boolean {
  if (openId === "") return false;
  const list = account.allowedUsers ?? [];
  return list.length === 0 || list.includes(openId);
}

/** A callback whose ids are safe to store and address (Feishu ids only). */
function routable(cb: CardCallback): cb is CardCallback & { chatId: string } {
  return cb.chatId !== null && isFeishuId(cb.chatId) && isFeishuId(cb.eventId) &&
    (cb.sourceMessageId === null || isFeishuId(cb.sourceMessageId)) &&
    (cb.threadId === null || isFeishuId(cb.threadId));
}

/** Builds the card-callback capability. */
export function createCardCallbacks(options: CardCallbackOptions): CardCallbacks {
  const { store, log } = options;
  const all = new Map<string, CallbackCounters>();
  const count = (alias: string) => {
    let c = all.get(alias);
    if (!c) all.set(alias, c = { business: 0, control: 0, votes: 0, refused: 0, malformed: 0 });
    return c;
  };

  async function business(account: Account, clicked: CardCallback & { chatId: string }) {
    const alias = account.alias;
    // A card in a topic belongs to that topic even when the callback does not name it.
    const source = clicked.sourceMessageId
      ? store.records.chatOfFeishuMessage(alias, clicked.sourceMessageId)
      : null;
    const cb = { ...clicked, threadId: clicked.threadId ?? source?.threadId ?? null };
    const atMs = cb.atMs ?? options.clock.now();
    const record = buildCardActionRecord(cb, {
      alias,
      fromName: cb.operator.name ?? await account.names.resolve(cb.operator.open_id),
      nowMs: atMs,
    });
    const outcome = await options.conversation.recordAndWake(
      account,
      { kind: "card_action", record },
      { atMs },
    );
    if (outcome === "replayed") return;
    count(alias).business++;
    log.info("feishu_card_action", { account: alias, id: record.id });
  }

  return {
    counters: (alias) => ({ ...count(alias) }),
    answer({ account, envelope }) {
      const cb = readCallback(envelope);
      if (!cb) return undefined;
      const vote = permissionVote(cb.action.value);
      if (vote) {
        count(account.alias).votes++;
        if (!options.votes) {
          return toast("error", "This permission request is unknown here or has ended.");
        }
        return options.votes.click(account, cb, vote);
      }
      if (!allowed(account, cb.operator.open_id)) {
        count(account.alias).refused++;
        return toast("error", "You are not allowed to use this card.");
      }
      const request = controlRequest(cb.action.value);
      if (request) {
        if (!routable(cb)) return undefined;
        if (!options.control.answer) return undefined;
        return options.control.answer({ account, callback: cb, request });
      }
      return routable(cb) ? toast("info", "Sent to the agent.") : undefined;
    },
    async handle({ account, envelope }) {
      const cb = readCallback(envelope);
      const c = count(account.alias);
      if (!cb || !routable(cb)) {
        c.malformed++;
        log.warn("card callback without a usable chat, card or event id dropped", {
          account: account.alias,
        });
        return;
      }
      if (permissionVote(cb.action.value)) return; // decided when it was answered
      if (!cb.operator.open_id) {
        log.warn("card callback without an actor dropped", { account: account.alias });
        return;
      }
      if (!allowed(account, cb.operator.open_id)) {
        log.debug("card callback from an actor outside allowed_users dropped", {
          account: account.alias,
        });
        return;
      }
      const request = controlRequest(cb.action.value);
      if (request) {
        c.control++;
        return await options.control.handle({ account, callback: cb, request });
      }
      await business(account, cb);
    },
  };
}
