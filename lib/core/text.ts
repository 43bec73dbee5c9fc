/**
 * Text helpers that count Unicode code points, as Feishu's and our limits do
 * (JS `.length` counts UTF-16 units).
 * @module
 */

/**
 * Number of code points in a string.
 *
 * @example
 * ```ts
 * import { codePointLength } from "./text.ts";
 * if (codePointLength("a😀") !== 2) throw new Error();
 * ```
 */
export function codePointLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/**
 * Cuts a string to at most `max` code points, appending `ellipsis` (which
 * counts toward `max`) when it had to cut.
 *
 * @example
 * ```ts
 * import { truncateCodePoints } from "./text.ts";
 * if (truncateCodePoints("abcdef", 4) !== "abc…") throw new Error();
 * if (truncateCodePoints("abc", 4) !== "abc") throw new Error();
 * ```
 */
export function truncateCodePoints(s: string, max: number, ellipsis = "…"): string {
  const cps = Array.from(s);
  if (cps.length <= max) return s;
  const keep = Math.max(0, max - codePointLength(ellipsis));
  return cps.slice(0, keep).join("") + ellipsis;
}

/**
 * UTC ISO timestamp with second resolution and a `Z` suffix, the record date
 * format (`YYYY-MM-DDTHH:MM:SSZ`).
 *
 * @example
 * ```ts
 * import { isoSeconds } from "./text.ts";
 * if (isoSeconds(0) !== "1970-01-01T00:00:00Z") throw new Error();
 * ```
 */
export function isoSeconds(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "Z");
}

/** Byte length of a string in UTF-8. */
export function utf8Length(s: string): number {
  return new TextEncoder().encode(s).length;
}
