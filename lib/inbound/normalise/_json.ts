/**
 * Narrow readers for untrusted JSON: every wire value is checked here, so the
 * converters never index into something that is not what they expect.
 * @module
 */

/** A plain JSON object. */
export type JsonObject = Record<string, unknown>;

/** The value when it is a plain object (not an array), else undefined. */
export function asObject(value: unknown): JsonObject | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as JsonObject
    : undefined;
}

/** The value when it is a non-empty string, else undefined. */
export function asText(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** The value when it is an array, else an empty array. */
export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** A finite number from a number or a numeric string, else undefined. */
export function asNumber(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  return undefined;
}

/** Parses a JSON string; undefined when it is not a string or not JSON. */
export function parseJson(raw: unknown): unknown {
  if (typeof raw !== "string" || raw.trim() === "") return undefined;
  try {
    return JSON.parse(raw);
  } catch (_notJson) {
    // Explicit fallback: malformed content is handled as "no content" by every converter.
    return undefined;
  }
}
