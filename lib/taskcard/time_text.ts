/**
 * Clock times on the card, in the agent's time zone: rows show `HH:MM:SS`,
 * the last line says which zone that is (`14:03:09 (Asia/Shanghai)`).
 * Unlike the Telegram bridge's `UTC±HH` (which drops the minutes of a
 * +05:30 offset and hides daylight saving), the zone is named.
 * @module
 */

import { clockTime, zonedClock } from "../core/mod.ts";
import type { RenderTime } from "./types.ts";

/**
 * The render time with its zone's name.
 *
 * @example
 * ```ts
 * import { formatClock } from "./time_text.ts";
 * const at = Date.UTC(2026, 0, 1, 18, 30, 0);
 * if (formatClock({ ms: at, zone: "Asia/Shanghai" }) !== "02:30:00 (Asia/Shanghai)") throw new Error();
 * ```
 */
export function formatClock(t: RenderTime): string {
  return zonedClock(t.ms, t.zone);
}

/**
 * A row's start time (epoch ms) as `HH:MM:SS` in `zone`, else `""`.
 *
 * @example
 * ```ts
 * import { formatRowTime } from "./time_text.ts";
 * if (formatRowTime(Date.UTC(2026, 0, 1, 18, 30, 0), "Asia/Kolkata") !== "00:00:00") throw new Error();
 * if (formatRowTime("12", "UTC") !== "" || formatRowTime(Number.NaN, "UTC") !== "") throw new Error();
 * ```
 */
export function formatRowTime(ms: unknown, zone: string): string {
  if (typeof ms !== "number" || !Number.isFinite(ms)) return "";
  return clockTime(ms, zone);
}
