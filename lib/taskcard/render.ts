/**
 * The Task Card's text: a header, the rows of the latest provider round(s),
 * a footer, telemetry lines and the render time, never longer than 3500 code
 * points. It keeps the Telegram bridge's layout, budgets and cuts (every
 * length counts Unicode code points, whitespace is trimmed the way Python's
 * `str.strip()` trims it) but speaks the agent's language (the texts come
 * from the card's language table) and shows times in the agent's zone.
 * Every text a row shows (tool name and action included) is redacted once
 * more right before it is shown. The frame is plain text: the Feishu wrapper
 * escapes it for the card's markdown element.
 * @module
 */

import { fill } from "../../cards/mod.ts";
import { redactText } from "../core/mod.ts";
import { EN_TASK, formatMetadata, type TaskTexts } from "./metadata.ts";
import { formatClock, formatRowTime } from "./time_text.ts";
import type { Group, Metadata, RenderTime, Row } from "./types.ts";

export { EN_TASK, formatCount, formatMetadata, type TaskTexts } from "./metadata.ts";

/** Longest frame, in code points. */
export const TEXT_LIMIT = 3500;
/** First line of every English frame. */
export const HEADER = EN_TASK.header;
/** Line introducing each provider round. */
export const DIVIDER = "──────────";
/** Most code points of one row's excerpt (reasoning or response text). */
export const EXCERPT_CAP = 500;

/** What a frame is written with: the language's texts and the redactor. */
export interface FrameLook {
  t: TaskTexts;
  redact: (text: string) => string;
}

/** English, redacting with no registered secrets (tests and pure callers). */
export const DEFAULT_LOOK: FrameLook = { t: EN_TASK, redact: redactText };

/** A row that opens a provider round in the rendered list. */
export interface DividerRow {
  kind: "divider";
}

/**
 * The footer line naming the current number of normal rows.
 *
 * @example
 * ```ts
 * import { taskCardFooter } from "./render.ts";
 * if (!taskCardFooter(3).endsWith("(1-10, current: 3).")) throw new Error();
 * ```
 */
export function taskCardFooter(normalRows: number, t: TaskTexts = EN_TASK): string {
  return fill(t.footer, { n: normalRows });
}

/**
 * The neutral line of a conversation's card while its request is under way:
 * how many steps the agent took in other conversations meanwhile (never
 * what they were).
 *
 * @example
 * ```ts
 * import { otherStepsLine } from "./render.ts";
 * if (otherStepsLine(2) !== "Steps in other conversations: 2") throw new Error();
 * ```
 */
export function otherStepsLine(n: number, t: TaskTexts = EN_TASK): string {
  return fill(t.other_steps, { n });
}

const cps = (s: string): string[] => Array.from(s);
const cpLength = (s: string): number => cps(s).length;
const cpCut = (s: string, max: number): string => {
  const all = cps(s);
  return all.length <= max ? s : all.slice(0, max).join("");
};
/** `s` cut to `max` code points, with `…` appended when something was cut. */
const excerpt = (s: string, max: number): string => {
  const all = cps(s);
  return all.length <= max ? s : `${all.slice(0, max).join("")}…`;
};

// Python's whitespace set for `str.strip()`: JS `\s` minus U+FEFF plus the
// information separators U+001C..U+001F and NEL.
const PY_SPACE = "\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029" +
  "\\u202f\\u205f\\u3000";
const PY_STRIP = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, "g");
const pyStrip = (s: string): string => s.replace(PY_STRIP, "");

/** A row field as text: absent is empty, strings as they are, anything else stringified. */
const fieldText = (v: unknown): string =>
  v === undefined ? "" : typeof v === "string" ? v : String(v);

/** Python truthiness, for the `done` flag of untyped rows. */
function truthy(v: unknown): boolean {
  if (Array.isArray(v)) return v.length > 0;
  if (v !== null && typeof v === "object") return Object.keys(v).length > 0;
  return v !== undefined && v !== null && v !== false && v !== 0 && v !== "" && v !== 0n;
}

const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * Elapsed seconds as whole seconds, truncated, never negative; `"0"` for
 * anything that is not a finite number or a decimal string.
 */
function wholeSeconds(v: unknown): string {
  let n = 0;
  if (typeof v === "number") n = v;
  else if (typeof v === "boolean") n = v ? 1 : 0;
  else if (typeof v === "string" && DECIMAL.test(pyStrip(v))) n = Number(pyStrip(v));
  if (!Number.isFinite(n) || n <= 0) return "0";
  return BigInt(Math.trunc(n)).toString();
}

const STATUS_KEYS = {
  success: "status_success",
  error: "status_error",
  "???": "status_pending",
} as const;

/** A tool row reduced to what its line needs; the excerpt is cut later. */
interface ToolLine {
  index: number;
  prefix: string;
  reasoning: string;
  /** ` (Ns[, status])` plus ` · started_at` when known. */
  suffix: string;
}

function toolLine(
  index: number,
  row: Record<string, unknown>,
  look: FrameLook,
  zone: string,
): ToolLine {
  const tool = look.redact(fieldText(row.tool));
  const action = look.redact(fieldText(row.tool_action));
  const label = action === "" ? tool : `${tool}.${action}`;
  const status = typeof row.status === "string" && Object.hasOwn(STATUS_KEYS, row.status)
    ? row.status as keyof typeof STATUS_KEYS
    : null;
  const marker = truthy(row.done) || status === "success" ? "✓ " : "• ";
  const startedAt = formatRowTime(row.started_ms, zone);
  const elapsed = `${wholeSeconds(row.elapsed_s)}s${
    status === null ? "" : `, ${look.t[STATUS_KEYS[status]]}`
  }`;
  return {
    index,
    prefix: label === "" ? marker : `${marker}${label}: `,
    reasoning: look.redact(fieldText(row.reasoning)),
    suffix: ` (${elapsed})${startedAt === "" ? "" : ` · ${startedAt}`}`,
  };
}

/**
 * The frame for a flat list of rows. Every row's excerpt gets the same cap:
 * what remains of the 3500 code points after the fixed lines and each row's
 * scaffolding, shared by the text and tool rows, at most 500. An excerpt
 * longer than the cap is cut and ends with `…`. Without any row the frame is
 * just header, blank line, footer, telemetry and time.
 *
 * @example
 * ```ts
 * import { formatRows } from "./render.ts";
 * const text = formatRows([{ kind: "text", text: " hello " }], null, 1, {
 *   ms: Date.UTC(2026, 0, 1, 12, 0, 0),
 *   zone: "UTC",
 * });
 * if (text.split("\n")[1] !== "• hello") throw new Error(text);
 * if (!text.endsWith("\nLast Updated: 12:00:00 (UTC)")) throw new Error(text);
 * ```
 */
export function formatRows(
  rows: readonly (Row | DividerRow)[],
  metadata: Metadata | null,
  normalRows: number,
  now: RenderTime,
  look: FrameLook = DEFAULT_LOOK,
  otherSteps = 0,
): string {
  const { t } = look;
  const header = t.header;
  const footer = taskCardFooter(normalRows, t);
  const others = otherSteps > 0 ? [otherStepsLine(otherSteps, t)] : [];
  const fixedLines = new Map<number, string>();
  const texts: { index: number; text: string }[] = [];
  const tools: ToolLine[] = [];
  rows.forEach((raw: unknown, index) => {
    if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return;
    const row = raw as Record<string, unknown>;
    if (row.kind === "divider") {
      fixedLines.set(index, DIVIDER);
    } else if (row.kind === "text") {
      const text = cpCut(pyStrip(look.redact(fieldText(row.text))), EXCERPT_CAP);
      if (text !== "") texts.push({ index, text });
    } else {
      tools.push(toolLine(index, row, look, now.zone));
    }
  });

  const metadataLines = formatMetadata(metadata, t);
  const timeLine = fill(t.updated, { time: formatClock(now) });
  const tail = ["", footer, ...metadataLines, timeLine];
  if (fixedLines.size === 0 && texts.length === 0 && tools.length === 0) {
    return [header, ...others, ...tail].join("\n");
  }

  // Scaffolding counts as fixed. A text row's own length counts too (as in
  // the Telegram renderer), so long responses shrink everyone's cap.
  let fixed = cpLength(header) + 1 + 1 + cpLength(footer) + cpLength(timeLine) + 1;
  for (const line of metadataLines) fixed += cpLength(line) + 1;
  for (const line of others) fixed += cpLength(line) + 1;
  for (const line of fixedLines.values()) fixed += cpLength(line) + 1;
  for (const { text } of texts) fixed += cpLength(text) + 4;
  for (const t of tools) fixed += cpLength(t.prefix) + cpLength(t.suffix) + 2;
  const rowCount = Math.max(1, tools.length + texts.length);
  const cap = Math.max(0, Math.min(EXCERPT_CAP, Math.floor((TEXT_LIMIT - fixed) / rowCount)));

  const body = new Map(fixedLines);
  for (const { index, text } of texts) body.set(index, `• ${excerpt(text, cap)}`);
  for (const t of tools) body.set(t.index, `${t.prefix}${excerpt(t.reasoning, cap)}${t.suffix}`);
  const ordered = [...body.entries()].sort(([a], [b]) => a - b).map(([, line]) => line);
  return [header, ...ordered, ...others, ...tail].join("\n");
}

/**
 * The frame for the last `normalRows` groups, each opened by a divider,
 * hard-cut (no `…`) to {@link TEXT_LIMIT} code points.
 * `otherSteps` above 0 adds {@link otherStepsLine} under the rows.
 *
 * @example
 * ```ts
 * import { DIVIDER, renderEventGroups } from "./render.ts";
 * const groups = ["a", "b"].map((id) => ({
 *   api_call_id: id,
 *   events: [{ kind: "text" as const, text: `round ${id}` }],
 * }));
 * const text = renderEventGroups(groups, 1, null, { ms: 0, zone: "UTC" });
 * if (!text.includes(`${DIVIDER}\n• round b\n`) || text.includes("round a")) throw new Error(text);
 * ```
 */
export function renderEventGroups(
  groups: readonly Group[],
  normalRows: number,
  metadata: Metadata | null,
  now: RenderTime,
  look: FrameLook = DEFAULT_LOOK,
  otherSteps = 0,
): string {
  const rows: (Row | DividerRow)[] = [];
  // `slice(-n)` takes the last n groups (and, like Python's `[-n:]`, all of them for 0).
  for (const group of groups.slice(-normalRows)) {
    rows.push({ kind: "divider" }, ...(Array.isArray(group?.events) ? group.events : []));
  }
  return cpCut(formatRows(rows, metadata, normalRows, now, look, otherSteps), TEXT_LIMIT);
}
