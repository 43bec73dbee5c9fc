/**
 * What counts as a JSON object here: the same test JSON Schema's `object`
 * type makes (not null, not an array).
 * @module
 */

/**
 * Whether a value is a JSON object (a non-null, non-array object).
 *
 * @example
 * ```ts
 * import { isJsonObject } from "./_json_value.ts";
 * import assert from "node:assert/strict";
 * assert.equal(isJsonObject({}), true);
 * assert.equal(isJsonObject([]), false);
 * assert.equal(isJsonObject(null), false);
 * ```
 */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
