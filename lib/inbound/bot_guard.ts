/**
 * The loop guard: two bots that keep answering each other would wake the
 * agent without end. At most `max` admitted bot messages per chat wake the
 * agent within any sliding window of `windowMs`; past that a bot's message
 * is recorded but held (no wake), and the first one held in an episode asks
 * for the owners to be told. A wake allowed again (the window freed up) ends
 * the episode, so the next overflow tells them again. The decision is pure
 * ({@link decideBotWake}); the state of each chat lives in memory, so a
 * restart starts every chat afresh.
 * @module
 */

import type { Account } from "../account/mod.ts";
import { DEFAULT_BOT_WAKES } from "../config/mod.ts";
import type { IncomingMessageRecord } from "../store/mod.ts";

/** The cap: at most `max` bot wakes per chat within any `windowMs`. */
export interface BotWakeCap {
  max: number;
  windowMs: number;
}

/** One chat's guard state. */
export interface BotWakeState {
  /** The bot messages that woke the agent within the window: id and time (ms). */
  wakes: { id: string; at: number }[];
  /** True while messages are held (from the first held one to the next wake). */
  episode: boolean;
  /** The latest ids held (at most {@link HELD_IDS_KEPT}), so a retried job is not counted twice. */
  held: string[];
}

/** How many held ids a chat remembers. */
export const HELD_IDS_KEPT = 64;

/** What the guard decided for one admitted bot message. */
export interface BotWakeVerdict {
  wake: boolean;
  /** True for the first message held in an episode: the owners are told. */
  notice: boolean;
  /** True when this id was decided before (the same answer, counted once). */
  repeat: boolean;
  state: BotWakeState;
}

/** A chat nobody has heard a bot in yet. */
export const EMPTY_BOT_WAKE_STATE: BotWakeState = Object.freeze({
  wakes: [],
  episode: false,
  held: [],
}) as BotWakeState;

/**
 * Decides whether the bot message `id`, handled at `now`, wakes the agent.
 * The same id asked again (a retried job) gets the same answer and counts
 * once.
 *
 * @example
 * ```ts
 * import { decideBotWake, EMPTY_BOT_WAKE_STATE } from "./bot_guard.ts";
 * import assert from "node:assert/strict";
 * const cap = { max: 1, windowMs: 1000 };
 * const a = decideBotWake(EMPTY_BOT_WAKE_STATE, "om_1", 0, cap);
 * const b = decideBotWake(a.state, "om_2", 10, cap);
 * const c = decideBotWake(b.state, "om_3", 1000, cap);
 * assert.deepEqual([a.wake, b.wake, b.notice, c.wake], [true, false, true, true]);
 * ```
 */
export function decideBotWake(
  state: BotWakeState,
  id: string,
  now: number,
  cap: BotWakeCap,
): BotWakeVerdict {
  if (state.wakes.some((w) => w.id === id)) {
    return { wake: true, notice: false, repeat: true, state };
  }
  if (state.held.includes(id)) return { wake: false, notice: false, repeat: true, state };
  const wakes = state.wakes.filter((w) => now - w.at < cap.windowMs);
  if (wakes.length < cap.max) {
    return {
      wake: true,
      notice: false,
      repeat: false,
      state: { wakes: [...wakes, { id, at: now }], episode: false, held: [] },
    };
  }
  return {
    wake: false,
    notice: !state.episode,
    repeat: false,
    state: { wakes, episode: true, held: [...state.held, id].slice(-HELD_IDS_KEPT) },
  };
}

/** The guard of one account: the state of each chat. */
export class BotWakeGuard {
  readonly #chats = new Map<string, BotWakeState>();

  /** Decides for one admitted bot message of `chatId` (see {@link decideBotWake}). */
  decide(chatId: string, id: string, now: number, cap: BotWakeCap): BotWakeVerdict {
    const verdict = decideBotWake(this.#chats.get(chatId) ?? EMPTY_BOT_WAKE_STATE, id, now, cap);
    this.#chats.set(chatId, verdict.state);
    return verdict;
  }
}

/** A chat where the loop guard began holding bot messages back (the owners are told). */
export interface BotWakesHeldContext {
  account: Account;
  chatId: string;
  /** The first message held (once-only keys derive from it). */
  messageId: string;
  /** The cap that was reached: at most `max` bot wakes per `windowSeconds`. */
  max: number;
  windowSeconds: number;
}

/** What the pipeline does with one admitted message. */
export interface GuardedWake {
  /** Record it without waking anyone (and without presence reactions). */
  hold: boolean;
  /** The first message held in an episode: who to tell about. */
  notice: BotWakesHeldContext | null;
}

/**
 * The loop guard of every account, as the pipeline asks it: people's
 * messages always wake; other bots' are capped per chat by the account's
 * `access.bot_wakes` (default {@link DEFAULT_BOT_WAKES}). Also counts, per
 * account, the messages held back (for status).
 */
export class BotWakeGuards {
  readonly #guards = new Map<string, BotWakeGuard>();
  readonly #held = new Map<string, number>();

  constructor(private readonly now: () => number) {}

  /** The verdict on an admitted message of `account` about to be recorded. */
  check(
    account: Account,
    record: Pick<IncomingMessageRecord, "sender_is_bot" | "chat_id" | "feishu_message_id">,
  ): GuardedWake {
    if (!record.sender_is_bot) return { hold: false, notice: null };
    let guard = this.#guards.get(account.alias);
    if (!guard) this.#guards.set(account.alias, guard = new BotWakeGuard());
    const caps = account.access.botWakes ?? DEFAULT_BOT_WAKES;
    const cap = { max: caps.max, windowMs: caps.windowSeconds * 1000 };
    const id = record.feishu_message_id;
    const verdict = guard.decide(record.chat_id, id, this.now(), cap);
    if (verdict.wake) return { hold: false, notice: null };
    if (!verdict.repeat) this.#held.set(account.alias, this.held(account.alias) + 1);
    return {
      hold: true,
      notice: verdict.notice ? { account, chatId: record.chat_id, messageId: id, ...caps } : null,
    };
  }

  /** How many bot messages of an account were held back since the start. */
  held(alias: string): number {
    return this.#held.get(alias) ?? 0;
  }
}
