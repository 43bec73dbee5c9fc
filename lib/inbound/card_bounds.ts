/**
 * Bounds on what a card click carries, applied at intake before the click
 * is journaled or answered: each member of `event.action` (the button's
 * `value`, a form's `form_value`, …) may nest at most
 * {@link CLICK_VALUE_MAX_DEPTH} levels (a JSON string is measured as the
 * value it parses to) and serialize to at most {@link CLICK_VALUE_MAX_BYTES}
 * bytes. A member over either bound is replaced by a placeholder object
 * (`{"truncated": true, "note": …}`); the click itself is kept, journaled,
 * answered and recorded like any other, so nothing recursive downstream
 * (records, previews, notifications) ever meets a value nested thousands of
 * levels deep. Pure; iterative (any depth is safe to measure).
 * @module
 */

import { boundedValue } from "../core/mod.ts";
import type { RawEnvelope } from "../feishu/mod.ts";

/** The deepest a click's value may nest (objects and arrays). */
export const CLICK_VALUE_MAX_DEPTH = 32;
/** The largest a click's value may be, in bytes of UTF-8 JSON. */
export const CLICK_VALUE_MAX_BYTES = 8192;

/** What replaces a member over the bounds. */
export function clickPlaceholder(why: "depth" | "size"): { truncated: true; note: string } {
  return {
    truncated: true,
    note: why === "depth"
      ? `The card sent a value nested deeper than ${CLICK_VALUE_MAX_DEPTH} levels; it was dropped.`
      : `The card sent a value larger than ${CLICK_VALUE_MAX_BYTES} bytes; it was dropped.`,
  };
}

const encoder = new TextEncoder();

/**
 * Why `value` is over the bounds, or null when it is within them.
 *
 * @example
 * ```ts
 * import { overBounds } from "./card_bounds.ts";
 * if (overBounds({ action: "confirm" }) !== null) throw new Error();
 * if (overBounds("{\"a\":".repeat(40) + "1" + "}".repeat(40)) !== "depth") throw new Error();
 * if (overBounds({ text: "x".repeat(9000) }) !== "size") throw new Error();
 * ```
 */
export function overBounds(value: unknown): "depth" | "size" | null {
  let measured = value;
  if (typeof value === "string") {
    if (encoder.encode(value).length > CLICK_VALUE_MAX_BYTES) return "size";
    try {
      measured = JSON.parse(value);
    } catch {
      return null;
    }
  }
  // Only an object or array can be too deep (a scalar, `undefined` included, never is).
  const nested = typeof measured === "object" && measured !== null;
  if (nested && boundedValue(measured, CLICK_VALUE_MAX_DEPTH) === undefined) return "depth";
  if (typeof value === "string") return null;
  const json = JSON.stringify(measured);
  return json !== undefined && encoder.encode(json).length > CLICK_VALUE_MAX_BYTES ? "size" : null;
}

/**
 * A card envelope whose `event.action` members are within the bounds: the
 * same envelope when nothing is over them, else a copy with the members over
 * them replaced by {@link clickPlaceholder}.
 *
 * @example
 * ```ts
 * import { boundCardEnvelope } from "./card_bounds.ts";
 * const deep = "{\"a\":".repeat(20000) + "1" + "}".repeat(20000);
 * const env = { header: {}, event: { action: { tag: "button", value: deep } } };
 * const out = boundCardEnvelope(env) as { event: { action: { tag: string; value: { truncated: boolean } } } };
 * if (out.event.action.value.truncated !== true || out.event.action.tag !== "button") throw new Error();
 * if (boundCardEnvelope({ event: { action: { value: { ok: 1 } } } }).event === undefined) throw new Error();
 * ```
 */
export function boundCardEnvelope(envelope: RawEnvelope): RawEnvelope {
  const event = envelope.event;
  if (typeof event !== "object" || event === null || Array.isArray(event)) return envelope;
  const action = (event as Record<string, unknown>).action;
  if (typeof action !== "object" || action === null || Array.isArray(action)) return envelope;
  let bounded: Record<string, unknown> | null = null;
  for (const [key, member] of Object.entries(action)) {
    const why = overBounds(member);
    if (!why) continue;
    bounded ??= { ...action };
    bounded[key] = clickPlaceholder(why);
  }
  if (!bounded) return envelope;
  return { ...envelope, event: { ...event, action: bounded } };
}
