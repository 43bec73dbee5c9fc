/**
 * Untrusted JSON values with a bounded nesting depth (an events-log row, a
 * card click's value): what is kept can be copied and compared without
 * recursing deeper than a few levels (a value nested 100 000 levels deep
 * parses fine, but would overflow the stack of a recursive copy).
 * @module
 */

type Obj = Record<string, unknown>;

/**
 * A copy of a JSON value when it nests at most `depth` levels, else
 * undefined (the recursion is bounded by `depth`, whatever the input).
 *
 * @example
 * ```ts
 * import { boundedValue } from "./bounded.ts";
 * if (boundedValue(3, 0) !== 3 || boundedValue([[1]], 1) !== undefined) throw new Error();
 * if (JSON.stringify(boundedValue({ a: [1] }, 2)) !== '{"a":[1]}') throw new Error();
 * ```
 */
export function boundedValue(value: unknown, depth: number): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (depth <= 0) return undefined;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const item of value) {
      const kept = boundedValue(item, depth - 1);
      if (kept === undefined && item !== undefined) return undefined;
      out.push(kept);
    }
    return out;
  }
  const out: Obj = {};
  for (const [key, item] of Object.entries(value)) {
    const kept = boundedValue(item, depth - 1);
    if (kept === undefined) return undefined;
    out[key] = kept;
  }
  return out;
}
