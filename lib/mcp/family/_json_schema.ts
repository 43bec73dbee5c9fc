/**
 * Tiny builders for the draft-07 JSON Schema fragments the published
 * `feishu` schema is made of. Each call returns a fresh object.
 * @module
 */

/** A JSON Schema node: keyword → value. */
export interface JsonSchema {
  [keyword: string]: unknown;
}

/** Options of {@link str}. */
export interface StrOptions {
  minLength?: number;
  enum?: readonly string[];
  description?: string;
}

/**
 * A string schema.
 *
 * @example
 * ```ts
 * import { str } from "./_json_schema.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(str({ minLength: 1 }), { type: "string", minLength: 1 });
 * ```
 */
export function str(options: StrOptions = {}): JsonSchema {
  const out: JsonSchema = { type: "string" };
  if (options.enum !== undefined) out.enum = [...options.enum];
  if (options.minLength !== undefined) out.minLength = options.minLength;
  if (options.description !== undefined) out.description = options.description;
  return out;
}

/**
 * `S` or JSON null, written as `anyOf` so draft-07 validators agree.
 *
 * @example
 * ```ts
 * import { nullable, str } from "./_json_schema.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(nullable(str()), { anyOf: [{ type: "string" }, { type: "null" }] });
 * ```
 */
export function nullable(schema: JsonSchema, description?: string): JsonSchema {
  const out: JsonSchema = { anyOf: [schema, { type: "null" }] };
  if (description !== undefined) out.description = description;
  return out;
}

/** Options of {@link closedObject}. */
export interface ClosedObjectOptions {
  required?: readonly string[];
  /** Extra keywords merged in last (`oneOf`, `minProperties`…). */
  extra?: JsonSchema;
}

/**
 * An object schema that refuses unknown keys.
 *
 * @example
 * ```ts
 * import { closedObject, str } from "./_json_schema.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(closedObject({ a: str() }, { required: ["a"] }), {
 *   type: "object",
 *   additionalProperties: false,
 *   properties: { a: { type: "string" } },
 *   required: ["a"],
 * });
 * ```
 */
export function closedObject(
  properties: Record<string, JsonSchema>,
  options: ClosedObjectOptions = {},
): JsonSchema {
  const out: JsonSchema = { type: "object", additionalProperties: false, properties };
  if (options.required !== undefined && options.required.length > 0) {
    out.required = [...options.required];
  }
  return { ...out, ...options.extra };
}

/**
 * The "exactly one of these keys is present" combinator.
 *
 * @example
 * ```ts
 * import { exactlyOneKey } from "./_json_schema.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(exactlyOneKey("text", "content"), {
 *   oneOf: [{ required: ["text"] }, { required: ["content"] }],
 * });
 * ```
 */
export function exactlyOneKey(first: string, second: string): JsonSchema {
  return { oneOf: [{ required: [first] }, { required: [second] }] };
}
