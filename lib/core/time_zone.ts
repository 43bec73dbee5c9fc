/**
 * Time zones for what people read: an IANA name checked with `Intl`, the
 * machine's own zone as the fallback, and clock times in a zone. Every
 * function here answers something sensible instead of throwing.
 * @module
 */

const formats = new Map<string, Intl.DateTimeFormat>();

/** The `HH:MM:SS` formatter of a zone (cached; a handful of zones at most). */
function clockFormat(zone: string): Intl.DateTimeFormat {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-GB", {
      timeZone: zone,
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    });
    if (formats.size > 64) formats.clear();
    formats.set(zone, f);
  }
  return f;
}

/**
 * The canonical name of an IANA time zone, or null when `value` is not one
 * `Intl` knows (case is forgiven: `asia/shanghai` gives `Asia/Shanghai`).
 *
 * @example
 * ```ts
 * import { validTimeZone } from "./time_zone.ts";
 * if (validTimeZone("asia/shanghai") !== "Asia/Shanghai") throw new Error();
 * if (validTimeZone("Mars/Olympus") !== null || validTimeZone(8) !== null) throw new Error();
 * ```
 */
export function validTimeZone(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const name = value.trim();
  if (name === "" || name.length > 64) return null;
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** This machine's time zone (what `TZ` or the system says), `UTC` when unknown. */
export function machineTimeZone(): string {
  try {
    return validTimeZone(Intl.DateTimeFormat().resolvedOptions().timeZone) ?? "UTC";
  } catch {
    return "UTC";
  }
}

/**
 * `HH:MM:SS` of the instant `ms` in `zone` (24-hour; UTC when the zone is unknown).
 *
 * @example
 * ```ts
 * import { clockTime } from "./time_zone.ts";
 * const at = Date.UTC(2026, 0, 1, 18, 30, 5);
 * if (clockTime(at, "Asia/Shanghai") !== "02:30:05") throw new Error();
 * if (clockTime(at, "America/St_Johns") !== "15:00:05") throw new Error();
 * ```
 */
export function clockTime(ms: number, zone: string): string {
  if (!Number.isFinite(ms)) return "";
  try {
    return clockFormat(zone).format(ms);
  } catch {
    return clockFormat("UTC").format(ms);
  }
}

/**
 * `HH:MM:SS (Zone)`: a clock time that says which zone it is in.
 *
 * @example
 * ```ts
 * import { zonedClock } from "./time_zone.ts";
 * if (zonedClock(Date.UTC(2026, 0, 1, 6, 3, 9), "Asia/Shanghai") !== "14:03:09 (Asia/Shanghai)") {
 *   throw new Error();
 * }
 * ```
 */
export function zonedClock(ms: number, zone: string): string {
  const known = validTimeZone(zone) ?? "UTC";
  return `${clockTime(ms, known)} (${known})`;
}

/**
 * `YYYY-MM-DD HH:MM` of the instant `ms` in `zone`, without the zone's name.
 *
 * @example
 * ```ts
 * import { dateTime } from "./time_zone.ts";
 * if (dateTime(Date.UTC(2025, 0, 15, 9, 30), "Asia/Shanghai") !== "2025-01-15 17:30") throw new Error();
 * ```
 */
export function dateTime(ms: number, zone: string): string {
  if (!Number.isFinite(ms)) return "";
  const known = validTimeZone(zone) ?? "UTC";
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone: known,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(ms);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("year")}-${part("month")}-${part("day")} ${part("hour")}:${part("minute")}`;
}
