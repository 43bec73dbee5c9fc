/**
 * Canonical JSON: object keys sorted at every level, no spaces, `undefined`
 * members dropped — equal values give equal text (dedupe keys, derived ids).
 * @module
 */

/**
 * Serialises `value` canonically.
 *
 * @example
 * ```ts
 * import { canonicalJson } from "./json.ts";
 * if (canonicalJson({ b: [1, { d: 1, c: 2 }], a: null }) !== '{"a":null,"b":[1,{"c":2,"d":1}]}') throw new Error();
 * ```
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v ?? null)).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}
