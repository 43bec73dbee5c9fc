/**
 * Flattens a union of closed objects (the `ltp` branches) into one closed
 * object for the `portable` projection: its properties are the union of the
 * branches' properties, each merged to the loosest type the branches give it
 * and described by a fixed grammar of clauses naming the branches it belongs
 * to ("Required for read; optional for search, add_contact."). Typed unions
 * inside (content, media source) are flattened the same way, by their `type`.
 * @module
 */

import { type JsonSchema, nullable } from "./_json_schema.ts";

/** One branch: the action name or the `type` value, and its closed object schema. */
export interface Branch {
  label: string;
  schema: JsonSchema;
}

/** How one object level is described: the branch scope phrase, hints, nested levels. */
export interface Level {
  /** `for read, search` or `when type is image, video`. */
  scope(labels: readonly string[]): string;
  /** Short hints by property name, winning over the branches' own descriptions. */
  hints: Readonly<Record<string, string>>;
  /** The level of a typed-union property, by property name. */
  nested: Readonly<Record<string, Level>>;
}

/** How a field takes part in one branch. */
type Presence =
  | { kind: "required" }
  | { kind: "one_of"; keys: readonly string[] }
  | { kind: "when"; key: string; value: string }
  | { kind: "optional" };

const KIND_ORDER: Presence["kind"][] = ["required", "one_of", "when", "optional"];

/**
 * The one closed object that accepts every branch's keys: a key required in
 * every branch stays required, every other key is optional and says where it
 * is required.
 *
 * @example
 * ```ts
 * import { flattenBranches } from "./_flatten.ts";
 * import assert from "node:assert/strict";
 * const level = { scope: (l: readonly string[]) => `for ${l.join(", ")}`, hints: {}, nested: {} };
 * const flat = flattenBranches([
 *   { label: "a", schema: { type: "object", properties: { x: { type: "string" } }, required: ["x"] } },
 *   { label: "b", schema: { type: "object", properties: { x: { type: "string" } } } },
 * ], level);
 * assert.deepEqual(flat.properties, {
 *   x: { type: "string", description: "Required for a; optional for b." },
 * });
 * ```
 */
export function flattenBranches(branches: readonly Branch[], level: Level): JsonSchema {
  const fields = new Map<string, { label: string; schema: JsonSchema; presence: Presence }[]>();
  for (const { label, schema } of branches) {
    for (const [key, presence] of presences(schema)) {
      const list = fields.get(key) ?? [];
      fields.set(key, list);
      list.push({ label, schema: propertiesOf(schema)[key]!, presence });
    }
  }
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [key, uses] of fields) {
    const everywhere = uses.length === branches.length &&
      uses.every((u) => u.presence.kind === "required");
    if (everywhere) required.push(key);
    const { schema, notes } = loosest(uses, level.nested[key]);
    const clauses = everywhere ? notes : [...clausesOf(uses, level), ...notes];
    const hint = level.hints[key] ?? commonDescription(uses.map((u) => u.schema));
    const text = [clauses.length ? `${capitalise(clauses.join("; "))}.` : "", hint ?? ""]
      .filter(Boolean).join(" ");
    properties[key] = text ? { ...schema, description: text } : schema;
  }
  const out: JsonSchema = { type: "object", properties };
  if (required.length) out.required = required;
  out.additionalProperties = false;
  return out;
}

/** The keys of one branch and how each takes part in it. */
function presences(schema: JsonSchema): Map<string, Presence> {
  const required = new Set((schema.required ?? []) as string[]);
  const out = new Map<string, Presence>();
  for (const key of Object.keys(propertiesOf(schema))) {
    out.set(key, required.has(key) ? { kind: "required" } : { kind: "optional" });
  }
  const entries = (schema.oneOf ?? []) as JsonSchema[];
  for (const entry of entries) {
    const needs = (entry.required ?? []) as string[];
    const tag = Object.entries(propertiesOf(entry)).find(([, s]) => s.const !== undefined);
    for (const key of needs) {
      out.set(
        key,
        tag
          ? { kind: "when", key: tag[0], value: String(tag[1].const) }
          : { kind: "one_of", keys: entries.flatMap((e) => (e.required ?? []) as string[]) },
      );
    }
  }
  return out;
}

/** One clause per presence, each naming the branches that share it. */
function clausesOf(
  uses: readonly { label: string; presence: Presence }[],
  level: Level,
): string[] {
  const groups = new Map<string, { presence: Presence; labels: string[] }>();
  for (const { label, presence } of uses) {
    const id = JSON.stringify(presence);
    const group = groups.get(id) ?? { presence, labels: [] };
    groups.set(id, group);
    group.labels.push(label);
  }
  const sorted = [...groups.values()].sort((a, b) =>
    KIND_ORDER.indexOf(a.presence.kind) - KIND_ORDER.indexOf(b.presence.kind)
  );
  return sorted.map(({ presence: p, labels }) => {
    const scope = level.scope(labels);
    switch (p.kind) {
      case "one_of":
        return `exactly one of ${p.keys.join(" or ")} ${scope}`;
      case "when":
        return `required ${scope} when ${p.key} is ${p.value}`;
      default:
        return `${p.kind} ${scope}`;
    }
  });
}

/** The loosest schema the branches give one field, and notes on narrower branches. */
function loosest(
  uses: readonly { label: string; schema: JsonSchema }[],
  nested: Level | undefined,
): { schema: JsonSchema; notes: string[] } {
  const isNull = (s: JsonSchema) => s.type === "null";
  const bases = uses.map(({ label, schema }) => {
    const anyOf = schema.anyOf as JsonSchema[] | undefined;
    const inner = anyOf?.length === 2 && anyOf.some(isNull)
      ? anyOf.find((s) => !isNull(s))!
      : schema;
    return { label, schema: inner, nullable: inner !== schema };
  });
  let schema: JsonSchema;
  const notes: string[] = [];
  if (bases.every((b) => isTypedUnion(b.schema))) {
    if (!nested) throw new Error("Expected a level for a typed union");
    const byTag = new Map<string, JsonSchema>();
    for (const b of bases) {
      for (const branch of b.schema.oneOf as JsonSchema[]) byTag.set(tagOf(branch), branch);
    }
    for (const b of bases) {
      const tags = (b.schema.oneOf as JsonSchema[]).map(tagOf);
      if (tags.length < byTag.size) notes.push(`${b.label} takes only type ${tags.join(", ")}`);
    }
    schema = flattenBranches([...byTag].map(([label, s]) => ({ label, schema: s })), nested);
  } else {
    schema = mergePlain(bases.map((b) => b.schema));
  }
  return { schema: bases.some((b) => b.nullable) ? nullable(schema) : schema, notes };
}

/** A `oneOf` of closed objects told apart by a one-value `type` enum. */
function isTypedUnion(schema: JsonSchema): boolean {
  const branches = schema.oneOf as JsonSchema[] | undefined;
  return schema.type === undefined && Array.isArray(branches) &&
    branches.every((b) => (propertiesOf(b).type?.enum as unknown[] | undefined)?.length === 1);
}

function tagOf(branch: JsonSchema): string {
  return String((propertiesOf(branch).type!.enum as unknown[])[0]);
}

/**
 * Same-typed leaf schemas merged to the loosest: an enum only when every
 * branch has one, a bound only when every branch has one; `minProperties`
 * and descriptions dropped.
 */
function mergePlain(list: readonly JsonSchema[]): JsonSchema {
  const first = list[0]!;
  if (list.some((s) => s.type !== first.type)) {
    throw new Error(`Expected one type for a field but found ${list.map((s) => s.type)}`);
  }
  const { description: _d, minProperties: _m, enum: _e, minLength: _l, minimum: _n, ...rest } =
    first;
  const out: JsonSchema = { ...rest };
  const every = (key: string) => list.every((s) => s[key] !== undefined);
  if (every("enum")) out.enum = [...new Set(list.flatMap((s) => s.enum as unknown[]))];
  if (every("minLength")) out.minLength = Math.min(...list.map((s) => s.minLength as number));
  if (every("minimum")) out.minimum = Math.min(...list.map((s) => s.minimum as number));
  return out;
}

/** The one description every branch that has one agrees on, if any. */
function commonDescription(list: readonly JsonSchema[]): string | undefined {
  const found = new Set(list.map((s) => s.description).filter((d) => typeof d === "string"));
  return found.size === 1 ? [...found][0] as string : undefined;
}

function propertiesOf(schema: JsonSchema): Record<string, JsonSchema> {
  return (schema.properties ?? {}) as Record<string, JsonSchema>;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
