/**
 * Number, duration and date formats of the agent summaries.
 * @module
 */

import { dateTime, machineTimeZone, validTimeZone } from "../lib/core/mod.ts";

/** Compact count: `1.2M`, `3.4K`, else the integer. */
export function fmt(n: number): string {
  if (!Number.isFinite(n)) return "0";
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)}K`;
  return String(Math.trunc(n));
}

/** Duration in seconds as `1d2h3m`; minutes shown when non-zero or alone; `0m` for none. */
export function fmtDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds <= 0) return "0m";
  const s = Math.floor(seconds);
  const d = Math.floor(s / 86400),
    h = Math.floor((s % 86400) / 3600),
    m = Math.floor((s % 3600) / 60);
  let out = "";
  if (d) out += `${d}d`;
  if (h) out += `${h}h`;
  if (m || !out) out += `${m}m`;
  return out;
}

/**
 * A timestamp (ISO text, or epoch seconds) as `YYYY-MM-DD HH:MM ZONE` in
 * `zone` (the agent's; this machine's by default); `?` when missing, the raw
 * text when it does not parse.
 */
export function fmtTime(value: unknown, zone: string = machineTimeZone()): string {
  let ms: number;
  if (typeof value === "number" && Number.isFinite(value)) ms = value * 1000;
  else if (typeof value === "string") {
    if (value.trim() === "") return "?";
    ms = new Date(value).getTime();
    if (Number.isNaN(ms)) return value;
  } else return "?";
  if (!Number.isFinite(ms) || Number.isNaN(new Date(ms).getTime())) return "?";
  return `${dateTime(ms, zone)} ${validTimeZone(zone) ?? "UTC"}`;
}

/** Comma-joined names up to `limit` code points, then `…(+R)` for the R left out; `—` when empty. */
export function joinLimited(items: readonly string[], limit = 220): string {
  if (items.length === 0) return "—";
  let out = "", shown = 0;
  for (const item of items) {
    const next = shown === 0 ? item : `${out}, ${item}`;
    if (Array.from(next).length > limit) break;
    out = next;
    shown++;
  }
  const rest = items.length - shown;
  if (rest === 0) return out;
  return shown === 0 ? `…(+${rest})` : `${out}, …(+${rest})`;
}

/** A percentage with one decimal. */
export function pct(n: number): string {
  return `${(Number.isFinite(n) ? n : 0).toFixed(1)}%`;
}
