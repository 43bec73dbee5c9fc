/**
 * Reading what a transcriber printed, and bounding error texts. Pure.
 *
 * A transcriber prints either plain text (whisper.cpp style: one line per
 * segment, optionally with `[hh:mm:ss.mmm --> hh:mm:ss.mmm]` stamps) or one
 * JSON object `{text, language?, duration?, segments?}`.
 * @module
 */

import { truncateCodePoints } from "../../core/mod.ts";
import type { TranscriptSegment, VoiceTranscript } from "../../store/mod.ts";

/** The result of {@link parseTranscriberOutput}. */
export type ParsedOutput =
  | { ok: true; transcript: VoiceTranscript }
  | { ok: false; error: string };

/** Longest error text stored on a record, in code points (download errors use the same bound). */
export const MAX_ERROR_CHARS = 200;

const STAMP =
  /^\[\s*(\d+(?::\d+){0,2}(?:[.,]\d+)?)\s*-->\s*(\d+(?::\d+){0,2}(?:[.,]\d+)?)\s*\]\s*(.*)$/;

/**
 * Reads a transcriber's stdout. Plain text: lines are trimmed, blank lines
 * dropped, the rest joined by spaces; when every line carries a time stamp
 * the stamps become segments, otherwise there are none. Output that looks
 * like a JSON object (starts with `{`, ends with `}`) must be valid and carry
 * a string `text`. An empty transcript is an error.
 *
 * @example whisper.cpp with time stamps
 * ```ts
 * import { parseTranscriberOutput } from "./output.ts";
 * const out = parseTranscriberOutput("[00:00:00.000 --> 00:00:01.500]   Hello\n[00:00:01.500 --> 00:00:02.000] world\n");
 * if (!out.ok || out.transcript.text !== "Hello world") throw new Error();
 * if (out.transcript.segments[1]?.start !== 1.5) throw new Error();
 * ```
 */
export function parseTranscriberOutput(stdout: string): ParsedOutput {
  const trimmed = stdout.trim();
  if (trimmed.startsWith("{") && trimmed.endsWith("}")) return parseJsonOutput(trimmed);
  const lines = trimmed.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== "");
  const stamped = lines.map((l) => STAMP.exec(l));
  const segments: TranscriptSegment[] = [];
  if (lines.length > 0 && stamped.every((m) => m !== null)) {
    for (const m of stamped) {
      const text = m![3]!.trim();
      if (text !== "") {
        segments.push({ start: clockSeconds(m![1]!), end: clockSeconds(m![2]!), text });
      }
    }
  }
  const text = segments.length > 0 ? segments.map((s) => s.text).join(" ") : lines.join(" ");
  if (text === "") {
    return { ok: false, error: "Expected a transcript but the transcriber printed no text" };
  }
  return { ok: true, transcript: { text, language: null, duration: null, segments } };
}

function parseJsonOutput(trimmed: string): ParsedOutput {
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch (err) {
    return {
      ok: false,
      error: boundError(
        `Expected transcriber JSON output but it does not parse: ${(err as Error).message}`,
      ),
    };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, error: "Expected transcriber JSON output to be an object" };
  }
  const o = value as Record<string, unknown>;
  if (typeof o.text !== "string") {
    return {
      ok: false,
      error: `Expected a string text in transcriber JSON but found ${kind(o.text)}`,
    };
  }
  const text = o.text.trim();
  if (text === "") {
    return { ok: false, error: "Expected a transcript but the transcriber printed no text" };
  }
  if (o.language !== undefined && o.language !== null && typeof o.language !== "string") {
    return { ok: false, error: `Expected language to be a string but found ${kind(o.language)}` };
  }
  if (o.duration !== undefined && o.duration !== null && !isSeconds(o.duration)) {
    return { ok: false, error: `Expected duration to be seconds but found ${kind(o.duration)}` };
  }
  const segments: TranscriptSegment[] = [];
  if (o.segments !== undefined && o.segments !== null) {
    if (!Array.isArray(o.segments)) {
      return { ok: false, error: `Expected segments to be a list but found ${kind(o.segments)}` };
    }
    for (const [i, s] of o.segments.entries()) {
      const seg = s as Record<string, unknown> | null;
      if (
        typeof seg !== "object" || seg === null || !isSeconds(seg.start) || !isSeconds(seg.end) ||
        typeof seg.text !== "string"
      ) {
        return { ok: false, error: `Expected segments[${i}] to be {start, end, text}` };
      }
      segments.push({ start: round2(seg.start), end: round2(seg.end), text: seg.text.trim() });
    }
  }
  return {
    ok: true,
    transcript: {
      text,
      language: typeof o.language === "string" && o.language !== "" ? o.language : null,
      duration: isSeconds(o.duration) ? round2(o.duration) : null,
      segments,
    },
  };
}

/**
 * Collapses whitespace and cuts to {@link MAX_ERROR_CHARS} code points,
 * keeping the start, as for every error text stored on a record.
 *
 * @example
 * ```ts
 * import { boundError } from "./output.ts";
 * if (boundError("  model\n\tunavailable ") !== "model unavailable") throw new Error();
 * if ([...boundError("x".repeat(300))].length !== 200) throw new Error();
 * ```
 */
export function boundError(text: string): string {
  return truncateCodePoints(text.replace(/\s+/g, " ").trim(), MAX_ERROR_CHARS);
}

/**
 * Collapses whitespace and keeps the last {@link MAX_ERROR_CHARS} code
 * points, for stderr, where tools print their progress first and the reason
 * they failed last.
 *
 * @example
 * ```ts
 * import { stderrTail } from "./output.ts";
 * const tail = stderrTail("loading ".repeat(50) + "error: model unavailable\n");
 * if (!tail.endsWith("error: model unavailable") || [...tail].length !== 200) throw new Error();
 * if (!tail.startsWith("…")) throw new Error();
 * ```
 */
export function stderrTail(text: string): string {
  const cps = Array.from(text.replace(/\s+/g, " ").trim());
  if (cps.length <= MAX_ERROR_CHARS) return cps.join("");
  return "…" + cps.slice(cps.length - (MAX_ERROR_CHARS - 1)).join("");
}

/** `hh:mm:ss.mmm`, `mm:ss,mmm` or `ss.mmm` → seconds rounded to 0.01. */
function clockSeconds(stamp: string): number {
  let seconds = 0;
  for (const part of stamp.replace(",", ".").split(":")) seconds = seconds * 60 + Number(part);
  return round2(seconds);
}

function isSeconds(v: unknown): v is number {
  return typeof v === "number" && Number.isFinite(v) && v >= 0;
}

function round2(v: number): number {
  return Math.round(v * 100) / 100;
}

function kind(v: unknown): string {
  if (v === undefined) return "nothing";
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  if (typeof v === "string") return JSON.stringify(truncateCodePoints(v, 40));
  return typeof v === "object" ? "an object" : String(v);
}
