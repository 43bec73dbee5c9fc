/**
 * Admission, the first inbound stage: pure yes/no decisions with a closed
 * set of reasons, for messages and for passive-event actors, plus which
 * presence reactions an admitted message gets. There is no age limit: an old
 * or backfilled message is admitted once and flagged later (`backfilled`,
 * `delayed_seconds`), never dropped for being late.
 * @module
 */

import { isMentionAll, readMessage } from "./normalise/mod.ts";
import { type PassiveEvent, projectPassiveEvent } from "./events.ts";
import type { RawEnvelope } from "../feishu/mod.ts";

/** Why a message or event was not admitted (counted in status). */
export const REJECT_REASONS = [
  "malformed",
  "self_sent",
  "mention_all_without_bot",
  "sender_not_allowed",
  "pairing_required",
  "bot_not_mentioned",
  "bot_ignored",
  "self_reaction",
  "actor_not_allowed",
  "not_a_passive_event",
] as const;

/** One of {@link REJECT_REASONS}. */
export type RejectReason = typeof REJECT_REASONS[number];

/** An admission verdict. */
export type Admission = { admit: true } | { admit: false; reason: RejectReason };

/** Who may DM the bot (`access.dm`). */
export type DmRule = "open" | "allowlist" | "pairing";

/** Which messages of other bots are admitted (`access.bots`). */
export type BotsRule = "ignore" | "mention" | "all";

/** Who this bot is and who may talk to it. */
export interface AdmissionPolicy {
  /** This bot's open_id; null when not known yet (self and mention checks then fail closed for groups). */
  botOpenId?: string | null;
  /** This app's id (`cli_…`), used for messages and reactions attributed to the app. */
  botAppId?: string | null;
  /**
   * Non-empty: in groups (and for passive events) only admitted senders
   * pass. Empty or null: everyone in groups.
   */
  allowedUsers?: readonly string[] | null;
  /** Who may DM; default `allowlist` with a non-empty `allowedUsers`, else `open`. */
  dm?: DmRule;
  /** Owners, allowed users and paired people; default: membership of `allowedUsers`. */
  admits?: (openId: string) => boolean;
  /** Messages of other bots and apps; default `mention`. */
  bots?: BotsRule;
}

/**
 * True when a sender is a bot or an app (Feishu's `sender_type` `app`, or
 * `bot`), not a person.
 *
 * @example
 * ```ts
 * import { isBotSender } from "./admission.ts";
 * if (!isBotSender("app") || isBotSender("user") || isBotSender(null)) throw new Error();
 * ```
 */
export function isBotSender(senderType: string | null): boolean {
  return senderType === "app" || senderType === "bot";
}

/**
 * Decides whether a message envelope reaches the agent, checking in order:
 * well-formed, not sent by this bot, not an `@all` without the bot in a
 * group, sender allowed, and (outside DMs) the bot mentioned explicitly.
 * Another bot's message (never our own: that is `self_sent`) follows the
 * `bots` rule instead of the people's rules (`allowedUsers`, `dm`, pairing
 * are about people): `ignore` drops it (`bot_ignored`), `mention` admits it
 * when it @-mentions this bot, anywhere (Feishu lets no bot DM another),
 * `all` admits every one.
 * In a DM the sender is checked by the `dm` rule: `open` lets everyone in,
 * `allowlist` only admitted people (`sender_not_allowed`), `pairing` too but
 * its refusal is `pairing_required` (the caller answers with a code). In a
 * group a non-empty `allowedUsers` lets only admitted people in.
 *
 * @example
 * ```ts
 * import { admitMessage } from "./admission.ts";
 * import assert from "node:assert/strict";
 * const group = (mentions: unknown[]) => ({ event: { sender: { sender_id: { open_id: "ou_a" } },
 *   message: { message_id: "om_1", chat_id: "oc_1", chat_type: "group", content: "{}", mentions } } });
 * assert.deepEqual(admitMessage(group([]), { botOpenId: "ou_bot" }), { admit: false, reason: "bot_not_mentioned" });
 * assert.deepEqual(admitMessage(group([{ key: "@_user_1", id: { open_id: "ou_bot" } }]), { botOpenId: "ou_bot" }), { admit: true });
 * ```
 */
export function admitMessage(envelope: RawEnvelope, policy: AdmissionPolicy): Admission {
  const m = readMessage(envelope);
  if (!m) return reject("malformed");
  const bot = policy.botOpenId || null;
  const appId = policy.botAppId || null;
  if ((bot && m.senderOpenId === bot) || (appId && m.senderAppId === appId)) {
    return reject("self_sent");
  }
  const isDm = m.chatType === "p2p";
  const mentionsBot = bot !== null && m.mentions.some((x) => x.openId === bot);
  const mentionsAll = m.mentions.some(isMentionAll) ||
    m.content.includes("@_all");
  if (isBotSender(m.senderType)) {
    return admitBot(policy.bots ?? "mention", mentionsBot, mentionsAll);
  }
  if (!isDm && mentionsAll && !mentionsBot) return reject("mention_all_without_bot");
  const refused = senderRefusal(m.senderOpenId, isDm, policy);
  if (refused) return reject(refused);
  if (!isDm && !mentionsBot) return reject("bot_not_mentioned");
  return { admit: true };
}

/**
 * Decides whether a passive event (reaction, read receipt, bot added/removed)
 * is recorded: reactions made by this app are dropped, then, when the
 * account restricts who talks to it (a non-empty `allowedUsers`, or a `dm`
 * rule other than `open`), the actor (`reader` for reads, `operator`
 * otherwise) must be admitted, where an empty actor fails.
 *
 * @example
 * ```ts
 * import { admitPassiveEvent } from "./admission.ts";
 * import assert from "node:assert/strict";
 * const reaction = { header: { event_id: "e1", event_type: "im.message.reaction.created_v1" },
 *   event: { message_id: "om_1", reaction_type: { emoji_type: "OK" }, operator_type: "app", app_id: "cli_me" } };
 * assert.deepEqual(admitPassiveEvent(reaction, { botAppId: "cli_me" }), { admit: false, reason: "self_reaction" });
 * ```
 */
export function admitPassiveEvent(envelope: RawEnvelope, policy: AdmissionPolicy): Admission {
  const projected = projectPassiveEvent(envelope);
  if (!projected) return reject("not_a_passive_event");
  if (projected.eventType === "reaction" && isOwnReaction(projected, policy)) {
    return reject("self_reaction");
  }
  const restricted = (policy.allowedUsers ?? []).length > 0 || dmRule(policy) !== "open";
  if (restricted && (projected.actorOpenId === "" || !admits(projected.actorOpenId, policy))) {
    return reject("actor_not_allowed");
  }
  return { admit: true };
}

/** A pairing request made by opening the bot's DM (see {@link enteredPairing}). */
export interface EnteredRequest {
  openId: string;
  chatId: string;
  /** The event's id: once-only keys derive from it (there is no message). */
  messageId: string;
  atMs: number;
  entered: true;
}

/**
 * Under `dm: "pairing"`, a person not admitted who opens the bot's DM
 * (`p2p_entered`) asks to be paired before writing anything; null for any
 * other event, rule or person.
 *
 * @example
 * ```ts
 * import { enteredPairing } from "./admission.ts";
 * const e = { header: { event_id: "ev_1", event_type: "im.chat.access_event.bot_p2p_chat_entered_v1",
 *   create_time: "1700000000000" }, event: { chat_id: "oc_dm", operator_id: { open_id: "ou_x" } } };
 * const ask = enteredPairing(e, { dm: "pairing", admits: () => false }, 0);
 * if (ask?.chatId !== "oc_dm" || ask.messageId !== "ev_1" || ask.atMs !== 1700000000000) throw new Error();
 * if (enteredPairing(e, { dm: "allowlist", admits: () => false }, 0) !== null) throw new Error();
 * ```
 */
export function enteredPairing(
  envelope: RawEnvelope,
  policy: AdmissionPolicy,
  nowMs: number,
): EnteredRequest | null {
  const projected = projectPassiveEvent(envelope);
  const eventId = envelope.header?.event_id;
  const chatId = projected?.sourceChatId;
  if (projected?.eventType !== "p2p_entered" || dmRule(policy) !== "pairing") return null;
  if (!chatId || typeof eventId !== "string" || eventId === "") return null;
  const openId = projected.actorOpenId;
  if (openId === "" || admits(openId, policy)) return null;
  const created = Number(envelope.header?.create_time);
  const atMs = Number.isFinite(created) && created > 0 ? created : nowMs;
  return { openId, chatId, messageId: eventId, atMs, entered: true };
}

function isOwnReaction(e: PassiveEvent, policy: AdmissionPolicy): boolean {
  const bot = policy.botOpenId || null;
  const appId = policy.botAppId || null;
  return (bot !== null && e.actorOpenId === bot) || (appId !== null && e.actorAppId === appId);
}

/** The reactions an admitted message gets, and where Typing is tracked. */
export type ReactionPlan =
  | { ok: true; typing: false }
  | {
    ok: true;
    typing: true;
    /** The receive target kept with the Typing entry (a failed send to it still removes Typing). */
    target: { receive_id: string; receive_id_type: "open_id" | "chat_id" };
  };

/**
 * The presence reactions of an admitted message: `OK` and `Typing`, always.
 * The chat shows one Typing, on its newest pending message: presence moves
 * an earlier one there (see lib/presence/typing.ts). The Typing target is the
 * sender's open_id in DMs and the chat otherwise.
 *
 * @example
 * ```ts
 * import { shouldReact } from "./admission.ts";
 * import assert from "node:assert/strict";
 * const dm = { event: { sender: { sender_id: { open_id: "ou_a" } },
 *   message: { message_id: "om_1", chat_id: "oc_1", chat_type: "p2p" } } };
 * assert.deepEqual(shouldReact(dm),
 *   { ok: true, typing: true, target: { receive_id: "ou_a", receive_id_type: "open_id" } });
 * assert.deepEqual(shouldReact({ event: {} }), { ok: true, typing: false });
 * ```
 */
export function shouldReact(envelope: RawEnvelope): ReactionPlan {
  const m = readMessage(envelope);
  if (!m) return { ok: true, typing: false };
  const dm = m.chatType === "p2p" && m.senderOpenId !== "";
  return {
    ok: true,
    typing: true,
    target: dm
      ? { receive_id: m.senderOpenId, receive_id_type: "open_id" }
      : { receive_id: m.chatId, receive_id_type: "chat_id" },
  };
}

function dmRule(policy: AdmissionPolicy): DmRule {
  return policy.dm ?? ((policy.allowedUsers ?? []).length > 0 ? "allowlist" : "open");
}

function admits(openId: string, policy: AdmissionPolicy): boolean {
  if (policy.admits) return openId !== "" && policy.admits(openId);
  return (policy.allowedUsers ?? []).includes(openId);
}

/** Why a sender may not talk here, or null when they may. */
function senderRefusal(
  openId: string,
  isDm: boolean,
  policy: AdmissionPolicy,
): RejectReason | null {
  if (!isDm) {
    return (policy.allowedUsers ?? []).length === 0 || admits(openId, policy)
      ? null
      : "sender_not_allowed";
  }
  const rule = dmRule(policy);
  if (rule === "open" || admits(openId, policy)) return null;
  return rule === "pairing" ? "pairing_required" : "sender_not_allowed";
}

/** Another bot's message under the `bots` rule. */
function admitBot(rule: BotsRule, mentionsBot: boolean, mentionsAll: boolean): Admission {
  if (rule === "ignore") return reject("bot_ignored");
  if (rule === "all" || mentionsBot) return { admit: true };
  return reject(mentionsAll ? "mention_all_without_bot" : "bot_not_mentioned");
}

function reject(reason: RejectReason): Admission {
  return { admit: false, reason };
}
