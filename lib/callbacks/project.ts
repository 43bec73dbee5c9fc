/**
 * Reading a `card.action.trigger` envelope into one card callback: who
 * clicked, on which card in which chat (and topic), what the element sent,
 * and the Feishu event id that makes the click unique. Read from the raw
 * envelope rather than through the SDK's card handler, whose dedupe (by
 * message, operator and value) would swallow a second intentional click.
 * Pure: no I/O.
 * @module
 */

import { createHash } from "node:crypto";
import type { RawEnvelope } from "../feishu/mod.ts";
import { pythonJson } from "./python_json.ts";

/** A JSON object. */
export type JsonObject = Record<string, unknown>;

/** Who clicked. */
export interface CallbackOperator {
  open_id: string;
  user_id?: string;
  name?: string;
}

/** One click (or form submit, select, …) on a card. */
export interface CardCallback {
  eventId: string;
  /** The chat the card is in, or null when the envelope names none. */
  chatId: string | null;
  /** The topic the card is in. */
  threadId: string | null;
  /** The card message that was clicked. */
  sourceMessageId: string | null;
  operator: CallbackOperator;
  /** `tag`, `value` (always an object) and whichever of the other action fields came. */
  action: JsonObject;
  /** The callback token (for a delayed card update). */
  token: string | null;
  /** When the click happened (ms), or null when the envelope does not say. */
  atMs: number | null;
  raw: RawEnvelope;
}

const ACTION_FIELDS = [
  "name",
  "option",
  "form_value",
  "input_value",
  "options",
  "checked",
] as const;

function obj(v: unknown): JsonObject | null {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? v as JsonObject : null;
}

function str(v: unknown): string | null {
  return typeof v === "string" && v !== "" ? v : null;
}

/**
 * A callback value as an object: a JSON string is parsed, a string that is
 * not JSON (or JSON that is not an object) is kept as `{value: …}`.
 *
 * @example
 * ```ts
 * import { decodeValue } from "./project.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(decodeValue('{"action":"confirm"}'), { action: "confirm" });
 * assert.deepEqual(decodeValue("plain"), { value: "plain" });
 * assert.deepEqual(decodeValue(undefined), {});
 * ```
 */
export function decodeValue(value: unknown): JsonObject {
  if (value === undefined || value === null) return {};
  if (typeof value === "string") {
    try {
      const parsed = JSON.parse(value);
      return obj(parsed) ?? { value: parsed };
    } catch {
      return { value };
    }
  }
  return obj(value) ?? { value };
}

/**
 * A timestamp in seconds, milliseconds or microseconds (number or numeric
 * string) as milliseconds; null when it is not one.
 */
function toMs(v: unknown): number | null {
  let n = typeof v === "string" && v.trim() !== "" ? Number(v) : typeof v === "number" ? v : NaN;
  if (!Number.isFinite(n) || n <= 0) return null;
  while (n > 1e10) n /= 1000;
  return Math.round(n * 1000);
}

/**
 * Reads a card callback envelope; null when `event.context`, `event.action`
 * or `event.operator` is not an object.
 *
 * @example
 * ```ts
 * import { readCallback } from "./project.ts";
 * import assert from "node:assert/strict";
 * const cb = readCallback({
 *   header: { event_id: "ev_1", event_type: "card.action.trigger", create_time: "1785000000000" },
 *   event: {
 *     operator: { open_id: "ou_a" },
 *     action: { tag: "button", value: '{"action":"confirm"}' },
 *     context: { open_message_id: "om_card", open_chat_id: "oc_chat", open_thread_id: "omt_1" },
 *   },
 * })!;
 * assert.equal(cb.eventId, "ev_1");
 * assert.deepEqual(cb.action, { tag: "button", value: { action: "confirm" } });
 * assert.equal(cb.threadId, "omt_1");
 * assert.equal(cb.atMs, 1785000000000);
 * ```
 */
export function readCallback(envelope: RawEnvelope): CardCallback | null {
  const event = obj(envelope.event);
  const context = obj(event?.context);
  const action = obj(event?.action);
  const operator = obj(event?.operator);
  if (!event || !context || !action || !operator) return null;
  const projected: JsonObject = {
    tag: str(action.tag) ?? "unknown",
    value: decodeValue(action.value),
  };
  for (const k of ACTION_FIELDS) {
    if (action[k] !== undefined && action[k] !== null) projected[k] = action[k];
  }
  const op: CallbackOperator = { open_id: str(operator.open_id) ?? "" };
  const userId = str(operator.user_id);
  if (userId) op.user_id = userId;
  const name = str(operator.name);
  if (name) op.name = name;
  const header = obj(envelope.header);
  const cb: Omit<CardCallback, "eventId"> = {
    chatId: str(context.open_chat_id),
    threadId: str(context.open_thread_id) ?? str(context.thread_id),
    sourceMessageId: str(context.open_message_id),
    operator: op,
    action: projected,
    token: str(event.token),
    atMs: toMs(action.timestamp) ?? toMs(header?.create_time) ??
      toMs((envelope as JsonObject).ts),
    raw: envelope,
  };
  return { ...cb, eventId: callbackEventId(envelope, cb) };
}

/** Keys that carry a credential: `token`, `preview_token`, `update_token`, … */
const TOKEN_KEY = /token$/i;

/**
 * A click envelope without its credentials — the event's verification token
 * (`header.token`, or a top-level `token`), the card's delayed-update token
 * (`event.token`) and any other `…token` key of the envelope, its header,
 * event, `event.context` and `event.action` — for keeping and showing.
 * What the card itself sent (`action.value`, `action.form_value`) is data and
 * stays as it is. Returns a copy; the given envelope is not changed.
 *
 * @example
 * ```ts
 * import { withoutTokens } from "./project.ts";
 * import assert from "node:assert/strict";
 * const env = {
 *   header: { event_id: "ev_1", token: "v-secret" },
 *   event: { token: "c-update", action: { value: { token: "mine" } }, context: { preview_token: "p" } },
 * };
 * assert.deepEqual(withoutTokens(env), {
 *   header: { event_id: "ev_1" },
 *   event: { action: { value: { token: "mine" } }, context: {} },
 * });
 * ```
 */
export function withoutTokens(envelope: RawEnvelope): RawEnvelope {
  const strip = (v: unknown): JsonObject | null => {
    const o = obj(v);
    if (!o) return null;
    return Object.fromEntries(Object.entries(o).filter(([k]) => !TOKEN_KEY.test(k)));
  };
  const out = strip(envelope) ?? {};
  for (const k of ["header", "event"]) {
    const inner = strip(out[k]);
    if (inner) out[k] = inner;
  }
  const event = obj(out.event);
  if (event) {
    for (const k of ["context", "action"]) {
      const inner = strip(event[k]);
      if (inner) event[k] = inner;
    }
  }
  return out as RawEnvelope;
}

/**
 * The event id of a callback: `header.event_id`, else a top-level `uuid` or
 * `event_id`, else one derived from the content (`derived-` + 24 hex of the
 * SHA-256 of its canonical JSON), so a callback without an id still dedupes.
 */
export function callbackEventId(
  envelope: RawEnvelope,
  cb: Pick<CardCallback, "chatId" | "sourceMessageId" | "operator" | "action">,
): string {
  const top = envelope as JsonObject;
  const given = str(obj(envelope.header)?.event_id) ?? str(top.uuid) ?? str(top.event_id);
  if (given) return given;
  const projection = {
    source_message_id: cb.sourceMessageId,
    chat_id: cb.chatId,
    operator: cb.operator,
    action: cb.action,
  };
  const canonical = pythonJson({ event_type: "card_action", event: projection, feishu: envelope }, {
    compact: true,
    asciiOnly: true,
  });
  return `derived-${createHash("sha256").update(canonical).digest("hex").slice(0, 24)}`;
}
