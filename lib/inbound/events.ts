/**
 * Passive channel events: reactions, read receipts, the bot being added to
 * or removed from a chat, a chat dissolved, a message recalled and a person
 * opening the bot's DM become read-only records of the reserved `events`
 * conversation. They never wake the agent (a recall's own wake, when one is
 * due, is recall.ts's).
 * @module
 */

import { createHash } from "node:crypto";
import { canonicalJson, EVENTS_CHAT_ID, formatCompoundId, isoSeconds } from "../core/mod.ts";
import { asArray, asNumber, asObject, asText, type JsonObject } from "./normalise/_json.ts";
import { epochSeconds } from "./normalise/_format.ts";
import type { RawEnvelope } from "../feishu/mod.ts";
import type { PassiveEventRecord, PassiveEventType } from "../store/mod.ts";

/** The passive event kinds. */
/** Canonical JSON (shared with the outbound duplicate guard). */
export { canonicalJson };

/** The passive event types Feishu sends, and what each becomes. */
export const EVENT_TYPES: Record<string, { type: PassiveEventType; action?: "added" | "removed" }> =
  {
    "im.message.reaction.created_v1": { type: "reaction", action: "added" },
    "im.message.reaction.deleted_v1": { type: "reaction", action: "removed" },
    "im.message.message_read_v1": { type: "message_read" },
    "im.chat.member.bot.added_v1": { type: "bot_added" },
    "im.chat.member.bot.deleted_v1": { type: "bot_leave" },
    "im.chat.access_event.bot_p2p_chat_entered_v1": { type: "p2p_entered" },
    "im.chat.disbanded_v1": { type: "chat_disbanded" },
    "im.message.recalled_v1": { type: "message_recalled" },
  };

/** A user as events show it: only the members that are set. */
export interface EventActor {
  open_id?: string;
  user_id?: string;
  name?: string;
}

/** The projection of one passive event and who caused it. */
export interface PassiveEvent {
  eventType: PassiveEventType;
  /** The `event` member of the record. */
  event: JsonObject;
  /** open_id of the operator (reader for `message_read`), or "". */
  actorOpenId: string;
  /** App id when an app operated (reactions by apps carry no open_id). */
  actorAppId: string | null;
  /** The chat the event happened in, when the payload says. */
  sourceChatId: string | null;
}

/** Options of {@link projectPassiveEvent} and {@link buildEventRecord}. */
export interface EventContext {
  /** Display name of a user from the contact cache, if known. */
  contactName?: (openId: string) => string | null | undefined;
  /**
   * The chat of a message we stored, if known. Feishu's reaction events carry
   * no chat; this fills `chat_id`/`chat_type` (and `source_chat_id`) in.
   */
  messageChat?: (
    feishuMessageId: string,
  ) => { chatId: string; chatType: string | null } | null | undefined;
}

/**
 * Projects a raw passive event envelope; undefined for any other event type.
 *
 * @example
 * ```ts
 * import { projectPassiveEvent } from "./events.ts";
 * import assert from "node:assert/strict";
 * const p = projectPassiveEvent({
 *   header: { event_id: "e1", event_type: "im.chat.member.bot.deleted_v1" },
 *   event: { chat_id: "oc_1", operator_id: { open_id: "ou_a", union_id: "on_a" } },
 * });
 * assert.deepEqual(p?.event, { chat_id: "oc_1", operator: { open_id: "ou_a" } });
 * assert.equal(p?.eventType, "bot_leave");
 * ```
 */
export function projectPassiveEvent(
  envelope: RawEnvelope,
  ctx: EventContext = {},
): PassiveEvent | undefined {
  const kind = EVENT_TYPES[asText(asObject(envelope.header)?.event_type) ?? ""];
  if (!kind) return undefined;
  const e = asObject(envelope.event) ?? {};
  const actorIds = asObject(
    kind.type === "reaction"
      ? e.user_id
      : kind.type === "message_read"
      ? asObject(e.reader)?.reader_id
      : e.operator_id,
  );
  const actor = actorOf(actorIds, ctx);
  let chatId = asText(e.chat_id) ?? null;
  let event: JsonObject;
  switch (kind.type) {
    case "reaction": {
      const messageId = asText(e.message_id) ?? null;
      const known = chatId === null && messageId ? ctx.messageChat?.(messageId) : undefined;
      if (known) chatId = known.chatId;
      event = {
        message_id: messageId,
        operator: actor,
        emoji_type: asText(asObject(e.reaction_type)?.emoji_type) ?? null,
        action: kind.action,
        chat_id: chatId,
        chat_type: asText(e.chat_type) ?? known?.chatType ?? null,
        action_time: asNumber(e.action_time) ?? null,
      };
      break;
    }
    case "message_read":
      event = {
        reader: actor,
        message_ids: asArray(e.message_id_list).filter((x) => typeof x === "string"),
      };
      break;
    case "bot_added":
      event = {
        chat_id: chatId,
        operator: actor,
        chat_name: asText(e.name) ?? null,
        external: typeof e.external === "boolean" ? e.external : null,
      };
      break;
    case "bot_leave":
      event = { chat_id: chatId, operator: actor };
      break;
    case "p2p_entered":
      // Also a first DM: the chat is known from here on, before any message.
      event = {
        chat_id: chatId,
        chat_type: "p2p",
        operator: actor,
        last_message_id: asText(e.last_message_id) || null,
      };
      break;
    case "chat_disbanded":
      event = { chat_id: chatId, operator: actor, chat_name: asText(e.name) ?? null };
      break;
    case "message_recalled":
      // Feishu names no operator, only the role that recalled it.
      event = {
        message_id: asText(e.message_id) ?? null,
        chat_id: chatId,
        recall_type: asText(e.recall_type) ?? null,
        recall_time: asNumber(e.recall_time) ?? null,
      };
      break;
  }
  return {
    eventType: kind.type,
    event,
    actorOpenId: actor.open_id ?? "",
    actorAppId: asText(e.app_id) ?? asText(actorIds?.app_id) ?? null,
    sourceChatId: chatId,
  };
}

function actorOf(ids: JsonObject | undefined, ctx: EventContext): EventActor {
  const actor: EventActor = {};
  const openId = asText(ids?.open_id);
  const userId = asText(ids?.user_id);
  if (openId) actor.open_id = openId;
  if (userId) actor.user_id = userId;
  const name = openId ? ctx.contactName?.(openId) : undefined;
  if (name) actor.name = name;
  return actor;
}

/**
 * The event id: `header.event_id`, else top-level `uuid`, else `event_id`,
 * else `derived-` + 24 hex of SHA-256 over the compact key-sorted JSON of
 * `{event_type, event, feishu}` (stable for the same input).
 *
 * @example
 * ```ts
 * import { passiveEventId } from "./events.ts";
 * import assert from "node:assert/strict";
 * assert.equal(passiveEventId({ header: { event_id: "e1" } }, { eventType: "reaction", event: {} }), "e1");
 * const a = passiveEventId({ event: { b: 1, a: 2 } }, { eventType: "reaction", event: {} });
 * const b = passiveEventId({ event: { a: 2, b: 1 } }, { eventType: "reaction", event: {} });
 * assert.equal(a, b);
 * assert.match(a, /^derived-[0-9a-f]{24}$/);
 * ```
 */
export function passiveEventId(
  envelope: RawEnvelope,
  projected: Pick<PassiveEvent, "eventType" | "event">,
): string {
  const given = asText(asObject(envelope.header)?.event_id) ?? asText(envelope.uuid) ??
    asText(envelope.event_id);
  if (given) return given;
  const key = canonicalJson({
    event_type: projected.eventType,
    event: projected.event,
    feishu: envelope,
  });
  return `derived-${createHash("sha256").update(key).digest("hex").slice(0, 24)}`;
}

/**
 * The record date: the first parseable of the projection's `action_time`,
 * `header.create_time` and a top-level `ts` (s, ms or µs), else now.
 *
 * @example
 * ```ts
 * import { passiveEventDate } from "./events.ts";
 * import assert from "node:assert/strict";
 * assert.equal(passiveEventDate({ header: { create_time: "1735700000000" } }, { event: {}, nowMs: 0 }), "2025-01-01T02:53:20Z");
 * assert.equal(passiveEventDate({}, { event: {}, nowMs: 0 }), "1970-01-01T00:00:00Z");
 * ```
 */
export function passiveEventDate(
  envelope: RawEnvelope,
  options: { event: JsonObject; nowMs: number },
): string {
  const seconds = epochSeconds(options.event.action_time) ??
    epochSeconds(asObject(envelope.header)?.create_time) ?? epochSeconds(envelope.ts);
  return isoSeconds(seconds !== undefined ? seconds * 1000 : options.nowMs);
}

/** What {@link buildEventRecord} needs besides the envelope. */
export interface EventRecordContext extends EventContext {
  alias: string;
  nowMs: number;
}

/**
 * Builds the `events` record of a passive event envelope; undefined for any
 * other event type. The derived id (when Feishu gave none) is computed before
 * contact names are added, so it does not change when a name becomes known.
 *
 * @example
 * ```ts
 * import { buildEventRecord } from "./events.ts";
 * import assert from "node:assert/strict";
 * const r = buildEventRecord({
 *   header: { event_id: "e9", event_type: "im.message.message_read_v1", create_time: "1735700002000" },
 *   event: { reader: { reader_id: { open_id: "ou_a" } }, message_id_list: ["om_1"] },
 * }, { alias: "main", nowMs: 0 });
 * assert.equal(r?.id, "main:events:e9");
 * assert.equal(r?.text, "[message_read]");
 * ```
 */
export function buildEventRecord(
  envelope: RawEnvelope,
  ctx: EventRecordContext,
): PassiveEventRecord | undefined {
  const bare = projectPassiveEvent(envelope);
  const projected = projectPassiveEvent(envelope, ctx);
  if (!bare || !projected) return undefined;
  const eventId = passiveEventId(envelope, bare);
  const actor = asObject(projected.event.operator ?? projected.event.reader) as EventActor;
  return {
    id: formatCompoundId(ctx.alias, EVENTS_CHAT_ID, eventId),
    feishu_event_id: eventId,
    chat_id: EVENTS_CHAT_ID,
    chat_type: "synthetic",
    thread_id: null,
    message_type: "event",
    event_type: projected.eventType,
    from_open_id: projected.actorOpenId,
    from_name: actor?.name ?? null,
    text: `[${projected.eventType}]`,
    date: passiveEventDate(envelope, { event: projected.event, nowMs: ctx.nowMs }),
    synthetic: true,
    source_chat_id: projected.sourceChatId,
    event: projected.event,
    feishu: envelope,
  };
}
