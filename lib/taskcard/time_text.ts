/**
 * Clock times on the card: `HH:MM:SS UTC±HH` in the server's local time
 * zone (the offset's minutes are dropped, so +05:30 shows as `UTC+05`).
 * @module
 */

import type { RenderTime } from "./types.ts";

const two = (n: number) => String(n).padStart(2, "0");

/**
 * Formats a time with its own offset.
 *
 * @example
 * ```ts
 * import { formatClock } from "./time_text.ts";
 * const at = Date.UTC(2026, 0, 1, 18, 30, 0);
 * if (formatClock({ ms: at, offsetMinutes: 480 }) !== "02:30:00 UTC+08") throw new Error();
 * if (formatClock({ ms: at, offsetMinutes: -210 }) !== "15:00:00 UTC-03") throw new Error();
 * ```
 */
export function formatClock(t: RenderTime): string {
  const shifted = new Date(t.ms + t.offsetMinutes * 60_000);
  const hours = Math.floor(Math.abs(t.offsetMinutes) / 60);
  const sign = t.offsetMinutes < 0 ? "-" : "+";
  return `${two(shifted.getUTCHours())}:${two(shifted.getUTCMinutes())}:${
    two(shifted.getUTCSeconds())
  } UTC${sign}${two(hours)}`;
}

/** The time `ms` in this process's time zone. */
export function localTime(ms: number): RenderTime {
  return { ms, offsetMinutes: -new Date(ms).getTimezoneOffset() };
}

/**
 * An events log row's `ts` (epoch seconds, a finite real number; booleans and
 * strings refused) as a local clock time, else `""`.
 *
 * @example
 * ```ts
 * import { formatRowTimestamp } from "./time_text.ts";
 * if (formatRowTimestamp("12") !== "" || formatRowTimestamp(true) !== "") throw new Error();
 * if (formatRowTimestamp(Number.NaN) !== "") throw new Error();
 * ```
 */
export function formatRowTimestamp(
  ts: unknown,
  zone: (ms: number) => RenderTime = localTime,
): string {
  if (typeof ts !== "number" || !Number.isFinite(ts)) return "";
  return formatClock(zone(Math.floor(ts * 1000)));
}
