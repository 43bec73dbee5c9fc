/**
 * Small renderers shared by the converters and the event projections.
 * @module
 */

import { isoSeconds } from "../../core/mod.ts";
import { asNumber } from "./_json.ts";

/** Escapes a value for a `key="value"` attribute of a flat-text tag. */
export function attr(value: string): string {
  return value.replaceAll('"', "&quot;");
}

/** ` name="value"` when the value is set, else "". */
export function optionalAttr(name: string, value: string | undefined): string {
  return value ? ` ${name}="${attr(value)}"` : "";
}

/**
 * A duration in ms as seconds with at most one decimal: `1.5s`, `1s`.
 *
 * @example
 * ```ts
 * import { durationText } from "./_format.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual([1500, 1000, 30000].map(durationText), ["1.5s", "1s", "30s"]);
 * ```
 */
export function durationText(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))}s`;
}

/**
 * Epoch seconds from a Feishu time value (s, ms or µs, number or numeric
 * string): divided by 1000 while above 10,000,000,000. Undefined when the
 * value is missing, not numeric, not positive or not finite (a 309-digit
 * string parses to Infinity, which no division brings down).
 *
 * @example
 * ```ts
 * import { epochSeconds } from "./_format.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(["1735700000", "1735700000000", 1735700000000000].map(epochSeconds),
 *   [1735700000, 1735700000, 1735700000]);
 * assert.equal(epochSeconds("0"), undefined);
 * assert.equal(epochSeconds("9".repeat(400)), undefined);
 * ```
 */
export function epochSeconds(value: unknown): number | undefined {
  let n = asNumber(value);
  if (n === undefined || n <= 0 || !Number.isFinite(n)) return undefined;
  while (n > 10_000_000_000) n /= 1000;
  return n;
}

/** A Feishu time value as `YYYY-MM-DDTHH:MM:SSZ`, else undefined. */
export function isoFromFeishuTime(value: unknown): string | undefined {
  const s = epochSeconds(value);
  return s === undefined ? undefined : isoSeconds(s * 1000);
}
