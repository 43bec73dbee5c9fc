/**
 * Turns rows of the agent's `logs/events.jsonl` into what the Task Card may
 * show, and nothing more. The card lives in a chat other people read, so the
 * projection is an allowlist: a model's public reply becomes a text row, a
 * tool call becomes a tool row carrying only its name, its `_reasoning`, its
 * `action` and its start time; results only move a row's status and elapsed
 * time. Arguments, result bodies and `thinking` never pass. Every text kept
 * (tool name and action included) is redacted, then made human
 * ({@link humanText}: no raw JSON, content tags, keys or ids), then capped.
 * Telemetry values nested deeper than {@link MAX_VALUE_DEPTH} are dropped, so
 * one hostile row cannot overflow the stack of a later copy or comparison.
 *
 * Rows are grouped by provider round (`api_call_id`) into a bounded window.
 * {@link mergeChunk} folds newly appended lines into that window so a tailer
 * never has to keep (or re-read) the file: merging chunk by chunk yields what
 * projecting the same lines in one go would.
 *
 * Lengths and cuts count code points, not UTF-16 units, so an astral emoji
 * costs one character as it does for the kernel that writes the events log.
 * @module
 */

import { boundedValue, redactText } from "../core/mod.ts";
import { humanText } from "./human_text.ts";
import type { Group, Metadata, Projection, Row, TextRow, ToolRow } from "./types.ts";

/** How many provider rounds the card keeps (the latest ones). */
export const EVENT_WINDOW = 10;
/** Rows kept per provider round; later rows of a full round are dropped. */
export const MAX_ROWS_PER_GROUP = 24;
/** Code points of a text row before it is cut with `…`. */
export const TEXT_CAP = 500;
/** Code points of a tool row's reasoning before it is cut with `…`. */
export const REASONING_CAP = 300;
/** Code points of a tool's name and of its action before they are cut with `…`. */
export const LABEL_CAP = 80;
/** Deepest nesting a telemetry value may have (deeper values are dropped). */
export const MAX_VALUE_DEPTH = 4;
/** Tool results remembered by call id, so a call logged after its result still joins. */
export const OUTCOME_MEMORY = 1024;
/** Round ids that slid out of the window, remembered so late rows cannot revive them. */
export const RETIRED_MEMORY = 256;

/** Session usage keys a final-carrier row may contribute to the footer. */
const SESSION_KEYS = [
  "session_cache_rate",
  "cache_miss_tokens",
  "cache_miss_budget",
  "api_calls",
  "context_tokens",
  "context_window",
  "context_usage",
] as const;

/** Removes secrets from a text (the server's redactor; cards style). */
export type Redact = (text: string) => string;
type Obj = Record<string, unknown>;

/** One complete events log line and where it starts (a byte offset, unique in the file). */
export interface EventsLogLine {
  at: number;
  text: string;
  /** The line already parsed (`JSON.parse(text)`), so it is parsed once however often merged. */
  value?: unknown;
}

/** What a tool result does to its call's row. */
export interface Outcome {
  status: "???" | "success" | "error";
  elapsed_s?: number;
}

/** A projection plus the bounded memory needed to keep merging chunks into it. */
export interface ProjectionState extends Projection {
  /** Latest outcome per tool-call id, oldest first (bounded by {@link OUTCOME_MEMORY}). */
  outcomes: Map<string, Outcome>;
  /** Ids of rounds that left the window, oldest first (bounded by {@link RETIRED_MEMORY}). */
  retired: Set<string>;
}

const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** The characters the events log's writer counts as whitespace (its `str.strip()` set). */
function isSpace(c: number): boolean {
  return (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x20) || c === 0x85 || c === 0xa0 ||
    c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 ||
    c === 0x202f || c === 0x205f || c === 0x3000;
}

/**
 * Strips whitespace at both ends with the writer's notion of whitespace
 * (which, unlike `trim()`, includes U+001C..U+001F and U+0085 but not U+FEFF).
 *
 * @example
 * ```ts
 * import { stripWhitespace } from "./project.ts";
 * if (stripWhitespace("\u001f hi \u0085") !== "hi") throw new Error();
 * if (stripWhitespace("\ufeff") !== "\ufeff") throw new Error();
 * ```
 */
export function stripWhitespace(s: string): string {
  // A scan rather than a regex: `\s+$` backtracks quadratically on long inner runs.
  let a = 0;
  let b = s.length;
  while (a < b && isSpace(s.charCodeAt(a))) a++;
  while (b > a && isSpace(s.charCodeAt(b - 1))) b--;
  return s.slice(a, b);
}

/** `s` cut to `cap` code points, the last one replaced by `…` when it was longer. */
function capText(s: string, cap: number): string {
  if (s.length <= cap) return s; // UTF-16 length bounds the code-point count from above
  const points = Array.from(s);
  return points.length > cap ? points.slice(0, cap - 1).join("") + "…" : s;
}

/** What a card may show of a text from the events log: redacted, made human, capped. */
function shown(text: string, redact: Redact, cap: number, strip = true): string {
  const human = humanText(redact(text));
  return capText(strip ? stripWhitespace(human) : human, cap);
}

function textRow(row: Obj, redact: Redact): TextRow | null {
  if (row.hidden === true) return null;
  if (row.visibility !== undefined && row.visibility !== null && row.visibility !== "public") {
    return null;
  }
  const text = row.text;
  if (typeof text !== "string" || stripWhitespace(text) === "") return null;
  const kept = shown(text, redact, TEXT_CAP);
  return kept === "" ? null : { kind: "text", text: kept };
}

function toolRow(row: Obj, redact: Redact): ToolRow | null {
  const name = row.tool_name;
  const args = row.tool_args;
  if (typeof name !== "string" || name === "" || !isObject(args)) return null;
  const raw = typeof args._reasoning === "string" ? args._reasoning : "";
  const out: ToolRow = {
    kind: "tool",
    tool: shown(name, redact, LABEL_CAP),
    reasoning: shown(raw, redact, REASONING_CAP, false),
  };
  if (typeof row.tool_call_id === "string" && row.tool_call_id !== "") {
    out._tool_call_id = row.tool_call_id;
    out.status = "???";
  }
  if (typeof args.action === "string" && args.action !== "") {
    const action = shown(args.action, redact, LABEL_CAP);
    if (action !== "") out.tool_action = action;
  }
  const ts = row.ts;
  // Epoch seconds, a finite real number (booleans and strings refused).
  if (typeof ts === "number" && Number.isFinite(ts)) out.started_ms = Math.floor(ts * 1000);
  return out;
}

/**
 * The card row an events log row projects to, or null when it shows nothing
 * (`thinking`, results, telemetry, unknown types, malformed rows).
 *
 * @example
 * ```ts
 * import { projectEvent } from "./project.ts";
 * const row = projectEvent({ type: "tool_call", tool_name: "bash", tool_call_id: "c1",
 *   tool_args: { command: "cat secrets", _reasoning: "look", action: "run" } });
 * if (JSON.stringify(row) !== JSON.stringify({ kind: "tool", tool: "bash", reasoning: "look",
 *   _tool_call_id: "c1", status: "???", tool_action: "run" })) throw new Error();
 * if (projectEvent({ type: "thinking", text: "private" }) !== null) throw new Error();
 * ```
 */
export function projectEvent(row: unknown, redact: Redact = redactText): Row | null {
  if (!isObject(row)) return null;
  if (row.type === "diary") return textRow(row, redact);
  if (row.type === "tool_call") return toolRow(row, redact);
  return null;
}

/**
 * The session telemetry of a final-carrier (`notification_block_injected`)
 * row: only the known usage keys, `{}` when the row carries no session usage
 * (which still replaces older telemetry); null for any other row.
 *
 * @example
 * ```ts
 * import { finalCarrierMetadata } from "./project.ts";
 * const session = { api_calls: 3, secret: "x" };
 * const row = { type: "notification_block_injected",
 *   _meta: { agent_meta: { agent_state: { token_usage: { session } } } } };
 * if (JSON.stringify(finalCarrierMetadata(row)) !== '{"api_calls":3}') throw new Error();
 * if (JSON.stringify(finalCarrierMetadata({ type: "notification_block_injected" })) !== "{}") {
 *   throw new Error();
 * }
 * if (finalCarrierMetadata({ type: "diary" }) !== null) throw new Error();
 * ```
 */
export function finalCarrierMetadata(row: unknown): Metadata | null {
  if (!isObject(row) || row.type !== "notification_block_injected") return null;
  let node: unknown = row;
  for (const key of ["_meta", "agent_meta", "agent_state", "token_usage", "session"]) {
    node = isObject(node) ? node[key] : undefined;
  }
  const out: Metadata = {};
  if (!isObject(node)) return out;
  for (const key of SESSION_KEYS) {
    if (!Object.hasOwn(node, key)) continue;
    const kept = boundedValue(node[key], MAX_VALUE_DEPTH);
    if (kept !== undefined) out[key] = kept;
  }
  return out;
}

/** A `tool_result` row's call id and outcome, or null for other rows. */
function resultOf(row: Obj): [string, Outcome] | null {
  if (row.type !== "tool_result") return null;
  const id = row.tool_call_id;
  if (typeof id !== "string" || id === "") return null;
  const s = row.status;
  // Only an explicit `error` reads as failure: a tool's own `failed` or `ok` shows as done.
  const outcome: Outcome = {
    status: s === "error" ? "error" : typeof s === "string" && s !== "" ? "success" : "???",
  };
  const ms = row.elapsed_ms;
  if (typeof ms === "number" && Number.isFinite(ms) && ms >= 0) outcome.elapsed_s = ms / 1000;
  return [id, outcome];
}

/** The latest result decides both fields, so merging in chunks matches one pass. */
function applyOutcome(row: ToolRow, outcome: Outcome): void {
  row.status = outcome.status;
  if (outcome.elapsed_s === undefined) delete row.elapsed_s;
  else row.elapsed_s = outcome.elapsed_s;
}

function groupIdOf(row: Obj, at: number): string {
  const id = row.api_call_id;
  const trimmed = typeof id === "string" ? stripWhitespace(id) : "";
  // Keyed by the line's position in the file, a legacy id is unique across polls.
  return trimmed !== "" ? trimmed : `legacy:${at}`;
}

/** Records `key`'s latest outcome as the newest entry, forgetting the oldest beyond the bound. */
function rememberOutcome(map: Map<string, Outcome>, key: string, value: Outcome): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > OUTCOME_MEMORY) map.delete(map.keys().next().value!);
}

/** The JSON value of a line, or null when it is not valid JSON. */
export function parseLine(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * An empty projection state (nothing seen yet; no telemetry).
 */
export function emptyState(): ProjectionState {
  return { groups: [], metadata: null, outcomes: new Map(), retired: new Set() };
}

/**
 * Folds newly appended events log lines into a projection without changing
 * `prev`. Blank, invalid-JSON and non-object lines are skipped; a late result
 * updates its call's row wherever it sits in the window; telemetry is replaced
 * only when the chunk holds a final-carrier row. A bare {@link Projection}
 * (e.g. a snapshot) may be passed; it is treated as having no memory of
 * results or retired rounds.
 *
 * @example
 * ```ts
 * import { emptyState, mergeChunk } from "./project.ts";
 * const call = '{"type":"tool_call","api_call_id":"r1","tool_name":"bash",' +
 *   '"tool_call_id":"c1","tool_args":{}}';
 * const one = mergeChunk(emptyState(), [{ at: 0, text: call }]);
 * const two = mergeChunk(one, [{ at: 99, text:
 *   '{"type":"tool_result","tool_call_id":"c1","status":"ok","elapsed_ms":2300}' }]);
 * const row = two.groups[0]!.events[0]!;
 * if (row.kind !== "tool" || row.status !== "success" || row.elapsed_s !== 2.3) throw new Error();
 * const before = one.groups[0]!.events[0]!;
 * if (before.kind !== "tool" || before.status !== "???") throw new Error(); // prev untouched
 * ```
 */
export function mergeChunk(
  prev: Projection | ProjectionState,
  lines: Iterable<EventsLogLine>,
  redact: Redact = redactText,
): ProjectionState {
  const groups: Group[] = prev.groups.map((g) => ({
    api_call_id: g.api_call_id,
    events: g.events.map((r) => ({ ...r })),
  }));
  const byId = new Map(groups.map((g) => [g.api_call_id, g]));
  const state = "outcomes" in prev ? prev : undefined;
  const outcomes = new Map(state?.outcomes);
  const retired = new Set(state?.retired);
  let metadata = prev.metadata === null ? null : structuredClone(prev.metadata);

  for (const line of lines) {
    const value = "value" in line ? line.value : parseLine(line.text);
    if (!isObject(value)) continue;
    const meta = finalCarrierMetadata(value);
    if (meta !== null) {
      metadata = meta;
      continue;
    }
    const result = resultOf(value);
    if (result !== null) {
      const [id, outcome] = result;
      rememberOutcome(outcomes, id, outcome);
      for (const g of groups) {
        for (const r of g.events) {
          if (r.kind === "tool" && r._tool_call_id === id) applyOutcome(r, outcome);
        }
      }
      continue;
    }
    const row = projectEvent(value, redact);
    if (row === null) continue;
    const id = groupIdOf(value, line.at);
    if (retired.has(id)) continue; // that round is older than everything in the window
    let group = byId.get(id);
    if (group === undefined) {
      group = { api_call_id: id, events: [] };
      groups.push(group);
      byId.set(id, group);
    }
    if (group.events.length >= MAX_ROWS_PER_GROUP) continue;
    if (row.kind === "tool" && row._tool_call_id !== undefined) {
      const known = outcomes.get(row._tool_call_id);
      if (known !== undefined) applyOutcome(row, known);
    }
    group.events.push(row);
  }

  while (groups.length > EVENT_WINDOW) {
    retired.add(groups.shift()!.api_call_id);
    if (retired.size > RETIRED_MEMORY) retired.delete(retired.values().next().value!);
  }
  return { groups, metadata, outcomes, retired };
}

/** Projects lines in one pass (the same as merging them into an empty state). */
export function projectLines(
  lines: Iterable<EventsLogLine>,
  redact: Redact = redactText,
): ProjectionState {
  return mergeChunk(emptyState(), lines, redact);
}

/** A deep copy of the public part of a projection (groups and telemetry). */
export function toProjection(p: Projection): Projection {
  return structuredClone({ groups: p.groups, metadata: p.metadata });
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  const ob = b as Obj;
  return ka.every((k) => Object.hasOwn(ob, k) && deepEqual((a as Obj)[k], ob[k]));
}

/**
 * Whether two projections show the same groups and telemetry (key order
 * ignored; the merge memories are not compared).
 *
 * @example
 * ```ts
 * import { sameProjection } from "./project.ts";
 * if (!sameProjection({ groups: [], metadata: { a: 1, b: 2 } },
 *   { groups: [], metadata: { b: 2, a: 1 } })) throw new Error();
 * if (sameProjection({ groups: [], metadata: null }, { groups: [], metadata: {} })) {
 *   throw new Error();
 * }
 * ```
 */
export function sameProjection(a: Projection, b: Projection): boolean {
  return deepEqual(a.groups, b.groups) && deepEqual(a.metadata, b.metadata);
}
