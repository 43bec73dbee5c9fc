/**
 * The telemetry lines under the Task Card's footer: session cache rate,
 * cache-miss tokens against their budget, API calls, context fill, and (when
 * a caller supplies it) the agent's lifecycle. The text must match the
 * Telegram bridge's, which is written in Python, so counts and percentages
 * are formatted the way Python's `format` does it, not the way `toFixed`
 * does. Values of the wrong type or out of range are left out, never shown
 * as `NaN` or `inf`. The labels come from the card's language table.
 * @module
 */

import { type Messages, messagesFor } from "../../cards/mod.ts";
import type { Metadata } from "./types.ts";

/** The Task Card texts of one language. */
export type TaskTexts = Messages["task"];

/** The English Task Card texts (the default of every renderer). */
export const EN_TASK: TaskTexts = messagesFor("en").task;

/** Most code points the telemetry lines may take together (newline included). */
export const METADATA_MAX_CHARS = 150;

/** Most telemetry lines. */
export const METADATA_MAX_LINES = 2;

const COUNT_UNITS: readonly (readonly [bigint, string])[] = [
  [1_000_000_000_000n, "T"],
  [1_000_000_000n, "B"],
  [1_000_000n, "M"],
  [1_000n, "k"],
];

/**
 * A token or call count in compact form, or `null` when `v` is not a
 * non-negative integer. Large counts show tenths of k/M/B/T, rounded half
 * up and never promoted to the next unit; trillions stop at `999.9T`.
 *
 * @example
 * ```ts
 * import { formatCount } from "./metadata.ts";
 * if (formatCount(170631) !== "170.6k" || formatCount(999_950) !== "1000.0k") throw new Error();
 * if (formatCount(1_000_000) !== "1.0M" || formatCount(999) !== "999") throw new Error();
 * if (formatCount(true) !== null || formatCount(1.5) !== null || formatCount(-1) !== null) {
 *   throw new Error();
 * }
 * ```
 */
export function formatCount(v: unknown): string | null {
  let n: bigint;
  if (typeof v === "bigint") n = v;
  else if (typeof v === "number" && Number.isInteger(v)) n = BigInt(v);
  else return null;
  if (n < 0n) return null;
  for (const [unit, suffix] of COUNT_UNITS) {
    if (n < unit) continue;
    // Exact integer arithmetic: doubles would lose the tenths on huge counts.
    let tenths = (n * 10n + unit / 2n) / unit;
    if (suffix === "T" && tenths > 9_999n) tenths = 9_999n;
    return `${tenths / 10n}.${tenths % 10n}${suffix}`;
  }
  return n.toString();
}

/**
 * `x` with `digits` decimals, correctly rounded from the exact binary value
 * of the double, ties to even (what Python's float formatting does; JS
 * `toFixed` rounds ties up).
 */
function fixedHalfEven(x: number, digits: number): string {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const high = view.getUint32(0);
  const biased = (high >>> 20) & 0x7ff;
  let mantissa = (BigInt(high & 0xfffff) << 32n) | BigInt(view.getUint32(4));
  if (biased !== 0) mantissa |= 1n << 52n;
  // |x| = mantissa · 2^exponent exactly.
  const exponent = biased === 0 ? -1074 : biased - 1075;
  const scaled = mantissa * 10n ** BigInt(digits);
  let units: bigint;
  if (exponent >= 0) {
    units = scaled << BigInt(exponent);
  } else {
    const divisor = 1n << BigInt(-exponent);
    units = scaled / divisor;
    const twiceRest = (scaled % divisor) * 2n;
    if (twiceRest > divisor || (twiceRest === divisor && units % 2n === 1n)) units += 1n;
  }
  const text = units.toString().padStart(digits + 1, "0");
  const sign = x < 0 || Object.is(x, -0) ? "-" : "";
  return digits === 0 ? sign + text : `${sign}${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

/**
 * A ratio as a percentage with `digits` decimals, as Python's
 * `format(ratio, ".Nf%")` prints it: the double product `ratio * 100`,
 * rounded exactly with ties to even.
 *
 * @example
 * ```ts
 * import { formatPercent } from "./metadata.ts";
 * if (formatPercent(0.87803, 1) !== "87.8%" || formatPercent(0.125, 1) !== "12.5%") throw new Error();
 * // Exact halves go to the even neighbour: 2.5 → 2, 1.5 → 2.
 * if (formatPercent(0.025, 0) !== "2%" || formatPercent(0.015, 0) !== "2%") throw new Error();
 * ```
 */
export function formatPercent(ratio: number, digits: number): string {
  return `${fixedHalfEven(ratio * 100, digits)}%`;
}

/** A real number in [0, 1] (booleans, strings and NaN refused). */
function ratioOf(v: unknown): number | null {
  return typeof v === "number" && v >= 0 && v <= 1 ? v : null;
}

/** Lifecycle states that mean the agent needs a nudge. */
const NEEDS_REFRESH = new Set(["stuck", "offline"]);
/** Lifecycle states shown as they are. */
const PLAIN_STATES = new Set(["active", "idle", "asleep", "suspended"]);

function agentLine(lifecycle: unknown, t: TaskTexts): string | null {
  if (typeof lifecycle !== "string") return null;
  if (!NEEDS_REFRESH.has(lifecycle) && !PLAIN_STATES.has(lifecycle)) return null;
  const state = t[`state_${lifecycle}` as keyof TaskTexts];
  return NEEDS_REFRESH.has(lifecycle)
    ? `${t.agent} · ${state} · ${t.refresh_hint}`
    : `${t.agent} · ${state}`;
}

function sessionLine(meta: Metadata, t: TaskTexts): string | null {
  const parts: string[] = [];
  const model = meta.model;
  if (typeof model === "string" && model.trim() !== "") parts.push(`${t.model} ${model.trim()}`);
  const rate = ratioOf(meta.session_cache_rate);
  if (rate !== null) parts.push(`${t.cache} ${formatPercent(rate, 1)}`);
  const miss = formatCount(meta.cache_miss_tokens);
  const budget = formatCount(meta.cache_miss_budget);
  if (miss !== null) parts.push(`${t.miss} ${budget === null ? miss : `${miss}/${budget}`}`);
  const calls = formatCount(meta.api_calls);
  if (calls !== null) parts.push(`${t.calls} ${calls}`);
  return parts.length === 0 ? null : `${t.session} · ${parts.join(" · ")}`;
}

function contextLine(meta: Metadata, t: TaskTexts): string | null {
  const parts: string[] = [];
  const tokens = formatCount(meta.context_tokens);
  const window = formatCount(meta.context_window);
  if (tokens !== null) parts.push(window === null ? tokens : `${tokens}/${window}`);
  const usage = ratioOf(meta.context_usage);
  if (usage !== null) parts.push(formatPercent(usage, 0));
  return parts.length === 0 ? null : `${t.ctx} · ${parts.join(" · ")}`;
}

const codePoints = (s: string): string[] => Array.from(s);

/**
 * The telemetry lines for `meta`: at most two (agent and session share the
 * first, context is the second), together at most 150 code points; the
 * second line gets what the first leaves and is dropped when nothing is
 * left. `null`, non-objects and unknown keys give no lines.
 *
 * @example
 * ```ts
 * import { formatMetadata } from "./metadata.ts";
 * const lines = formatMetadata({ api_calls: 2, context_usage: 0.5, agent_lifecycle: "stuck" });
 * if (lines.join("\n") !== "agent · stuck · try /refresh · session · calls 2\nctx · 50%") {
 *   throw new Error(lines.join("\n"));
 * }
 * if (formatMetadata(null).length !== 0 || formatMetadata({}).length !== 0) throw new Error();
 * ```
 */
export function formatMetadata(meta: Metadata | null, t: TaskTexts = EN_TASK): string[] {
  if (meta === null || typeof meta !== "object" || Array.isArray(meta)) return [];
  const first = [agentLine(meta.agent_lifecycle, t), sessionLine(meta, t)]
    .filter((part): part is string => part !== null).join(" · ");
  const lines = [first, contextLine(meta, t) ?? ""].filter((line) => line !== "")
    .slice(0, METADATA_MAX_LINES);
  if (codePoints(lines.join("\n")).length <= METADATA_MAX_CHARS) return lines;
  const head = codePoints(lines[0]!).slice(0, METADATA_MAX_CHARS);
  const left = METADATA_MAX_CHARS - head.length - 1;
  const tail = lines[1];
  if (tail === undefined || left <= 0) return [head.join("")];
  return [head.join(""), codePoints(tail).slice(0, left).join("")];
}
