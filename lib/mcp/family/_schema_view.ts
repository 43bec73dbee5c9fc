/**
 * Reading the `ltp` schema of one action for error messages: which branch
 * of a tagged union a value is in (content and source by `type`, react by
 * `operation`), the keys that branch accepts and requires, and a short
 * phrase for what a leaf expects ("an integer >= 0 or null").
 * @module
 */

import type { JsonSchema } from "./_json_schema.ts";
import { isJsonObject } from "./_json_value.ts";

/** What an object node accepts for one value. */
export interface ObjectView {
  properties: Record<string, JsonSchema>;
  required: readonly string[];
  /** The key and value that picked a tagged branch, when the node is a tagged union. */
  tag?: {
    key: string;
    value: string;
    /** Keys every branch requires. */
    common: ReadonlySet<string>;
    /** Keys some branch accepts. */
    siblings: ReadonlySet<string>;
  };
}

const props = (s: JsonSchema) => (s.properties ?? {}) as Record<string, JsonSchema>;
const req = (s: JsonSchema) => (s.required ?? []) as string[];

/** `S` of a nullable `anyOf: [S, null]`, else the node itself. */
function unwrap(node: JsonSchema): JsonSchema {
  const anyOf = node.anyOf as JsonSchema[] | undefined;
  return anyOf?.find((s) => s.type !== "null") ?? node;
}

/**
 * The object view of `node` for `value`, or undefined when the node is not
 * an object or no branch matches the value's tag.
 *
 * @example
 * ```ts
 * import { objectView } from "./_schema_view.ts";
 * import { contentSchema } from "./_content_schema.ts";
 * import assert from "node:assert/strict";
 * const view = objectView(contentSchema(), { type: "file" })!;
 * assert.deepEqual(Object.keys(view.properties), ["type", "source", "file_name"]);
 * assert.equal(view.tag?.value, "file");
 * assert.equal(view.tag?.siblings.has("caption"), true);
 * ```
 */
export function objectView(node: JsonSchema, value: unknown): ObjectView | undefined {
  const s = unwrap(node);
  const entries = (s.oneOf ?? []) as JsonSchema[];
  const v = isJsonObject(value) ? value : {};
  if (s.type === undefined && entries.length) {
    const tagOf = (b: JsonSchema) => (props(b).type?.enum as unknown[] | undefined)?.[0];
    const branch = entries.find((b) => tagOf(b) === v.type);
    if (!branch) return undefined;
    return {
      properties: props(branch),
      required: req(branch),
      tag: {
        key: "type",
        value: String(v.type),
        common: new Set(req(branch).filter((k) => entries.every((b) => req(b).includes(k)))),
        siblings: new Set(entries.flatMap((b) => Object.keys(props(b)))),
      },
    };
  }
  if (s.type !== "object") return undefined;
  const plain = { properties: props(s), required: req(s) };
  const pairing = entries.filter((e) => e.properties !== undefined);
  const key = pairing.length ? Object.keys(props(pairing[0]!))[0]! : undefined;
  const picked = key && pairing.find((e) => props(e)[key]!.const === v[key]);
  if (!key || !picked) return plain;
  const forbidden = new Set(req((picked.not ?? {}) as JsonSchema));
  return {
    properties: Object.fromEntries(Object.entries(props(s)).filter(([k]) => !forbidden.has(k))),
    required: [...req(s), ...req(picked)],
    tag: {
      key,
      value: String(v[key]),
      common: new Set(req(s)),
      siblings: new Set(Object.keys(props(s))),
    },
  };
}

/** The view of the object at `path` inside `value` (both under `root`), if any. */
export function viewAt(
  root: JsonSchema,
  path: readonly PropertyKey[],
  value: unknown,
): ObjectView | undefined {
  let node: JsonSchema | undefined = root;
  let v = value;
  for (const key of path) {
    const view: ObjectView | undefined = node && objectView(node, v);
    node = view?.properties[String(key)];
    v = isJsonObject(v) ? v[String(key)] : undefined;
  }
  return node && objectView(node, v);
}

/** The schema of the value at `path` (non-empty), if the schema knows it. */
export function nodeAt(
  root: JsonSchema,
  path: readonly PropertyKey[],
  value: unknown,
): JsonSchema | undefined {
  return viewAt(root, path.slice(0, -1), value)?.properties[String(path.at(-1))];
}

/**
 * What a schema node expects, as a short phrase.
 *
 * @example
 * ```ts
 * import { describeExpected } from "./_schema_view.ts";
 * import assert from "node:assert/strict";
 * const limit = { anyOf: [{ type: "integer", minimum: 0 }, { type: "null" }] };
 * assert.equal(describeExpected(limit), "an integer >= 0 or null");
 * assert.equal(describeExpected({ type: "string", minLength: 1 }), "a non-empty string");
 * ```
 */
export function describeExpected(node: JsonSchema): string {
  const inner = unwrap(node);
  if (inner !== node) return `${describeExpected(inner)} or null`;
  if (Array.isArray(node.enum)) {
    return node.enum.length === 1 ? `'${node.enum[0]}'` : `one of ${node.enum.join(", ")}`;
  }
  switch (node.type) {
    case "string":
      return node.minLength ? "a non-empty string" : "a string";
    case "integer":
      return node.minimum === undefined ? "an integer" : `an integer >= ${node.minimum}`;
    case "boolean":
      return "a boolean";
    case "object":
      return describeObject(node);
    default:
      return "an object";
  }
}

function describeObject(node: JsonSchema): string {
  const fixed = req(node).flatMap((k) => {
    const values = props(node)[k]?.enum as unknown[] | undefined;
    return values?.length === 1 ? [`${k} '${values[0]}'`] : [];
  });
  const more = ((node.minProperties ?? 0) as number) - fixed.length;
  if (!fixed.length) return more > 0 ? "a non-empty object" : "an object";
  return `an object with ${fixed.join(", ")}${more > 0 ? " and at least one more key" : ""}`;
}
