/**
 * Relative times for previews, computed against an injected now.
 * @module
 */

/**
 * `just now` (< 60 s, or in the future), `<n> min ago` (< 1 h),
 * `<n> hr ago` (< 24 h), `yesterday` (< 48 h), else the UTC date
 * `YYYY-MM-DD`; an unparseable date gives the raw string, or `?` when empty.
 *
 * @example
 * ```ts
 * import { relativeTime } from "./relative_time.ts";
 * import assert from "node:assert/strict";
 * const now = Date.parse("2026-08-03T12:00:00Z");
 * assert.equal(relativeTime("2026-08-03T11:59:30Z", now), "just now");
 * assert.equal(relativeTime("2026-08-03T11:15:00Z", now), "45 min ago");
 * assert.equal(relativeTime("2026-08-03T02:00:00Z", now), "10 hr ago");
 * assert.equal(relativeTime("2026-08-02T06:00:00Z", now), "yesterday");
 * assert.equal(relativeTime("2026-07-01T06:00:00Z", now), "2026-07-01");
 * assert.equal(relativeTime("soon", now), "soon");
 * assert.equal(relativeTime(undefined, now), "?");
 * ```
 */
export function relativeTime(date: string | null | undefined, nowMs: number): string {
  if (!date) return "?";
  const ms = Date.parse(date);
  if (Number.isNaN(ms)) return date;
  const seconds = (nowMs - ms) / 1000;
  if (seconds < 60) return "just now";
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} hr ago`;
  if (seconds < 172_800) return "yesterday";
  return new Date(ms).toISOString().slice(0, 10);
}
