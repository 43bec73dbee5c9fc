/**
 * Intake: the long connection's event handler. It does ONE durable write (the
 * journal's atomic admit: dedupe keys and the chat's FIFO) and
 * returns, so Feishu gets its ACK in milliseconds however slow the later work
 * is (a slow handler makes Feishu push the event again), and a crash never
 * keeps a dedupe key without its job. Nothing else happens here, except that
 * a card click's value is bounded first (see card_bounds.ts).
 *
 * Never ACK what is not durable: when the commit fails (a full or read-only
 * disk) `onEvent` throws, so the node-sdk answers the frame with code 500 and
 * Feishu pushes the event again; the failure goes to the storage watch
 * (storage_watch.ts), which probes for recovery and then catches up what
 * Feishu will not push again.
 * @module
 */

import { boundCardEnvelope } from "./card_bounds.ts";
import { EVENT_TYPES } from "./events.ts";
import { EVENTS_CHAT_ID, type Logger, storageErrorText } from "../core/mod.ts";
import type { Journal, JsonValue } from "../journal/mod.ts";
import type { RawEnvelope } from "../feishu/mod.ts";
import type { FailedEvent, StorageWatch } from "./storage_watch.ts";

/** What a journal entry holds. */
export interface IntakePayload {
  envelope: RawEnvelope;
  /** When we received it (ms). */
  received_at: number;
  source: "ws" | "backfill";
}

/**
 * The payload as the journal stores it. The envelope is JSON parsed from a
 * Feishu frame, but its type leaves its members `unknown`, which `JsonValue`
 * cannot take without walking the whole value; the journal serialises it as
 * it is.
 */
function toJournal(payload: IntakePayload): JsonValue {
  return payload as unknown as JsonValue;
}

/**
 * A journaled payload read back: the shape {@link toJournal} wrote, checked,
 * or null for anything else (an entry written by another version).
 *
 * @example
 * ```ts
 * import { fromJournal } from "./intake.ts";
 * if (fromJournal({ envelope: {}, received_at: 1, source: "ws" })?.source !== "ws") throw new Error();
 * if (fromJournal([1]) !== null || fromJournal({ envelope: null }) !== null) throw new Error();
 * ```
 */
export function fromJournal(value: JsonValue): IntakePayload | null {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return null;
  const { envelope, received_at, source } = value;
  if (envelope === null || typeof envelope !== "object" || Array.isArray(envelope)) return null;
  if (typeof received_at !== "number" || (source !== "ws" && source !== "backfill")) return null;
  return { envelope, received_at, source };
}

/**
 * A recall: journaled in the recalled message's chat FIFO, so it is handled
 * after that message's own job (see recall.ts).
 */
export const RECALL_EVENT_TYPE = "im.message.recalled_v1";

/** Event types that go to the reserved `events` conversation (a recall goes to its chat's). */
export const PASSIVE_EVENT_TYPES: ReadonlySet<string> = new Set(
  Object.keys(EVENT_TYPES).filter((t) => t !== RECALL_EVENT_TYPE),
);

/** Card callbacks (handled by the cards capability). */
export const CARD_EVENT_TYPES = new Set(["card.action.trigger", "card.action.trigger_v1"]);

/**
 * The FIFO and dedupe keys of an envelope: messages queue per chat and dedupe
 * by event id and message id; passive events queue in `events`; card
 * callbacks and recalls per chat by event id. Null for events we do not journal, and
 * for ids longer than {@link MAX_ID_LENGTH}.
 *
 * @example
 * ```ts
 * import { intakeKeys } from "./intake.ts";
 * const k = intakeKeys({ header: { event_id: "e1", event_type: "im.message.receive_v1" },
 *   event: { message: { message_id: "om_1", chat_id: "oc_1" } } });
 * if (k?.chatKey !== "oc_1" || k.dedupeKeys.join() !== "event:e1,msg:om_1") throw new Error();
 * const long = intakeKeys({ header: { event_id: "e".repeat(3000), event_type: "im.message.receive_v1" },
 *   event: { message: { message_id: "om_1", chat_id: "oc_1" } } });
 * if (long !== null) throw new Error("an oversized id is not journaled");
 * const recall = intakeKeys({ header: { event_id: "e2", event_type: "im.message.recalled_v1" },
 *   event: { message_id: "om_1", chat_id: "oc_1" } });
 * if (recall?.chatKey !== "oc_1") throw new Error("a recall queues behind its message");
 * ```
 */
export function intakeKeys(
  envelope: RawEnvelope,
): { chatKey: string; dedupeKeys: string[] } | null {
  const keys = journalKeys(envelope);
  // Feishu's ids are a few dozen characters; a longer one is not Feishu's and
  // would not fit a KV key (2 KiB), which would fail the commit on every re-push.
  if (keys && [keys.chatKey, ...keys.dedupeKeys].some((k) => k.length > MAX_ID_LENGTH)) {
    return null;
  }
  return keys;
}

/** The longest id (event, message or chat) intake journals. */
export const MAX_ID_LENGTH = 256;

function journalKeys(
  envelope: RawEnvelope,
): { chatKey: string; dedupeKeys: string[] } | null {
  const type = String(envelope.header?.event_type ?? "");
  const eventId = envelope.header?.event_id;
  const keys: string[] = typeof eventId === "string" && eventId ? [`event:${eventId}`] : [];
  const event = (envelope.event ?? {}) as Record<string, unknown>;
  if (type === "im.message.receive_v1") {
    const msg = (event.message ?? {}) as Record<string, unknown>;
    const chat = typeof msg.chat_id === "string" ? msg.chat_id : "";
    const mid = typeof msg.message_id === "string" ? msg.message_id : "";
    if (!chat || !mid) return null;
    return { chatKey: chat, dedupeKeys: [...keys, `msg:${mid}`] };
  }
  if (type === RECALL_EVENT_TYPE) {
    const chat = typeof event.chat_id === "string" ? event.chat_id : "";
    return chat && keys.length ? { chatKey: chat, dedupeKeys: keys } : null;
  }
  if (PASSIVE_EVENT_TYPES.has(type)) return { chatKey: EVENTS_CHAT_ID, dedupeKeys: keys };
  if (CARD_EVENT_TYPES.has(type)) {
    const ctx = (event.context ?? {}) as Record<string, unknown>;
    const chat = typeof ctx.open_chat_id === "string"
      ? ctx.open_chat_id
      : String(event.open_chat_id ?? "");
    return chat && keys.length ? { chatKey: chat, dedupeKeys: keys } : null;
  }
  return null;
}

/**
 * What the catch-up needs of an event that could not be written: its chat
 * and, for a message, its type and Feishu create time.
 *
 * @example
 * ```ts
 * import { failedEvent } from "./intake.ts";
 * const e = failedEvent({ header: { event_type: "im.message.receive_v1" },
 *   event: { message: { chat_id: "oc_1", chat_type: "p2p", create_time: "1700000000000" } } }, "oc_1");
 * if (e.createTime !== 1700000000000 || e.chatType !== "p2p") throw new Error();
 * ```
 */
export function failedEvent(envelope: RawEnvelope, chatKey: string): FailedEvent {
  const event = (envelope.event ?? {}) as Record<string, unknown>;
  const msg = (event.message ?? {}) as Record<string, unknown>;
  const created = Number(msg.create_time);
  return {
    chatId: chatKey,
    chatType: typeof msg.chat_type === "string" ? msg.chat_type : null,
    createTime: Number.isFinite(created) && created > 0 ? created : null,
  };
}

/** Counters the status resource shows. */
export interface IntakeCounters {
  queued: number;
  duplicates: number;
  ignored: number;
  /** Commits that failed (the event was not acknowledged). */
  failed: number;
}

/** Options of {@link createIntake}. */
export interface IntakeOptions {
  journal: Journal;
  alias: string;
  log: Logger;
  now: () => number;
  /**
   * The synchronous answer to a journaled card callback (the frame's ACK
   * data), computed after the commit; card callbacks only.
   */
  answer?: (envelope: RawEnvelope) => unknown | Promise<unknown>;
  /** Told of every failed and successful commit. */
  storage?: StorageWatch;
}

/** The intake of one account. */
export interface Intake {
  /** Journals one envelope and says what became of it. */
  admit(
    envelope: RawEnvelope,
    source: IntakePayload["source"],
  ): Promise<"queued" | "duplicate" | "ignored">;
  /**
   * The WS event handler: journal the envelope, then return the ACK data
   * (empty, except a card callback's answer).
   */
  onEvent(envelope: RawEnvelope): Promise<unknown>;
  counters: IntakeCounters;
}

/** Builds the intake of one account. */
export function createIntake(options: IntakeOptions): Intake {
  const counters: IntakeCounters = { queued: 0, duplicates: 0, ignored: 0, failed: 0 };
  const admit: Intake["admit"] = async (envelope, source) => {
    // A click's value is bounded before anything stores or reads it (card_bounds.ts).
    if (CARD_EVENT_TYPES.has(String(envelope.header?.event_type ?? ""))) {
      envelope = boundCardEnvelope(envelope);
    }
    const keys = intakeKeys(envelope);
    if (!keys) {
      counters.ignored++;
      const type = String(envelope.header?.event_type ?? "?");
      // An oversized id is someone else's bytes, worth a warning; an event type
      // we do not take is routine.
      if (journalKeys(envelope)) {
        options.log.warn("event with an oversized id not journaled", {
          account: options.alias,
          type,
        });
      } else options.log.debug("event not journaled", { account: options.alias, type });
      return "ignored";
    }
    const payload: IntakePayload = { envelope, received_at: options.now(), source };
    let result: "queued" | "duplicate";
    try {
      result = await options.journal.admit({
        account: options.alias,
        chatKey: keys.chatKey,
        dedupeKeys: keys.dedupeKeys,
        payload: toJournal(payload),
      });
    } catch (err) {
      counters.failed++;
      options.storage?.failed(err, failedEvent(envelope, keys.chatKey));
      options.log.error("intake could not journal an event; not acknowledged", {
        account: options.alias,
        chat: keys.chatKey,
        source,
        error: storageErrorText(err),
      });
      throw err;
    }
    options.storage?.succeeded();
    if (result === "queued") counters.queued++;
    else counters.duplicates++;
    return result;
  };
  return {
    counters,
    admit,
    async onEvent(received) {
      const type = String(received.header?.event_type ?? "");
      const card = CARD_EVENT_TYPES.has(type);
      const envelope = card ? boundCardEnvelope(received) : received;
      const outcome = await admit(envelope, "ws");
      if (outcome !== "queued" || !options.answer || !card) return undefined;
      try {
        return await options.answer(envelope);
      } catch (err) {
        // The click is journaled; a failed answer must not turn into a failed ACK.
        options.log.warn("card callback answer failed; acknowledged without one", {
          account: options.alias,
          error: err instanceof Error ? err.message : String(err),
        });
        return undefined;
      }
    },
  };
}
