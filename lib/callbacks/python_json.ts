/**
 * JSON written the way Python's `json.dumps(sort_keys=True)` writes it, so
 * texts and derived ids match what LingTai's other Feishu bridge produces:
 * keys sorted, `", "` and `": "` between items (or none when compact), and
 * optionally every non-ASCII character escaped as `\uXXXX`.
 * @module
 */

/** Options of {@link pythonJson}. */
export interface PythonJsonOptions {
  /** `,` and `:` without spaces. */
  compact?: boolean;
  /** Escape every non-ASCII UTF-16 unit as `\uXXXX` (Python's `ensure_ascii`). */
  asciiOnly?: boolean;
}

function quote(s: string, asciiOnly: boolean): string {
  const q = JSON.stringify(s);
  if (!asciiOnly) return q;
  let out = "";
  for (let i = 0; i < q.length; i++) {
    const c = q.charCodeAt(i);
    out += c > 0x7e ? `\\u${c.toString(16).padStart(4, "0")}` : q[i];
  }
  return out;
}

/**
 * Serialises `value` Python-style; values JSON cannot hold become strings.
 *
 * @example
 * ```ts
 * import { pythonJson } from "./python_json.ts";
 * import assert from "node:assert/strict";
 * assert.equal(pythonJson({ b: [1, "é"], a: null }), '{"a": null, "b": [1, "é"]}');
 * assert.equal(pythonJson({ b: "é", a: 1 }, { compact: true, asciiOnly: true }), '{"a":1,"b":"\\u00e9"}');
 * ```
 */
export function pythonJson(value: unknown, options: PythonJsonOptions = {}): string {
  const item = options.compact ? "," : ", ";
  const pair = options.compact ? ":" : ": ";
  const ascii = options.asciiOnly ?? false;
  const visit = (v: unknown, depth: number): string => {
    if (depth > 64) return quote(String(v), ascii);
    if (v === null || v === undefined) return "null";
    if (typeof v === "boolean") return v ? "true" : "false";
    if (typeof v === "number") return Number.isFinite(v) ? String(v) : quote(String(v), ascii);
    if (typeof v === "string") return quote(v, ascii);
    if (Array.isArray(v)) return `[${v.map((x) => visit(x, depth + 1)).join(item)}]`;
    if (typeof v === "object") {
      const entries = Object.entries(v as Record<string, unknown>)
        .filter(([, x]) => x !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return `{${
        entries.map(([k, x]) => `${quote(k, ascii)}${pair}${visit(x, depth + 1)}`).join(item)
      }}`;
    }
    return quote(String(v), ascii);
  };
  return visit(value, 0);
}
