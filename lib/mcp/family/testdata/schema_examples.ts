/**
 * Test-only example generators that read nothing but a published schema's
 * JSON, the way a model reads it: `portableExamples` follows the clause
 * grammar at the start of each `portable` property description, and
 * `ltpExamples` follows the `ltp` branch titles, `required` lists and `oneOf`
 * choices. Each returns every variant the choices allow (text or content,
 * each content and source type, each react operation), values filled by type.
 * @module
 */

import type { JsonSchema } from "../_json_schema.ts";

/** A generated value of an object schema. */
export type Example = Record<string, unknown>;

/**
 * One clause of a `portable` description: `required for read`, `optional
 * for search, add_contact`, `required for react when operation is add`,
 * `exactly one of text or content for send`, `required when type is text`,
 * `edit takes only type text, markdown`.
 */
export interface Clause {
  presence: "required" | "optional" | "one_of" | "only";
  /** The actions it is scoped to; absent when it is scoped by `when` alone. */
  actions?: string[];
  when?: { key: string; values: string[] };
  /** The exclusive keys of `one_of`. */
  keys?: string[];
}

const LIST = "([a-z_0-9.]+(?:, [a-z_0-9.]+)*)";
const GRAMMAR: [RegExp, (m: RegExpMatchArray) => Clause][] = [
  [new RegExp(`^(required|optional) for ${LIST}(?: when ([a-z_]+) is ${LIST})?$`), (m) => ({
    presence: m[1] as "required" | "optional",
    actions: m[2]!.split(", "),
    ...(m[3] ? { when: { key: m[3], values: m[4]!.split(", ") } } : {}),
  })],
  [new RegExp(`^exactly one of ([a-z_]+) or ([a-z_]+) for ${LIST}$`), (m) => ({
    presence: "one_of",
    keys: [m[1]!, m[2]!],
    actions: m[3]!.split(", "),
  })],
  [new RegExp(`^([a-z_]+) takes only ([a-z_]+) ${LIST}$`), (m) => ({
    presence: "only",
    actions: [m[1]!],
    when: { key: m[2]!, values: m[3]!.split(", ") },
  })],
  [new RegExp(`^(required|optional) when ([a-z_]+) is ${LIST}$`), (m) => ({
    presence: m[1] as "required" | "optional",
    when: { key: m[2]!, values: m[3]!.split(", ") },
  })],
];

/**
 * The clauses of a description's first sentence, or [] when that sentence
 * is not made of clauses (a plain hint).
 */
export function parseClauses(description: unknown): Clause[] {
  if (typeof description !== "string") return [];
  const first = description.split(". ")[0]!.replace(/\.$/, "");
  const parts = first.charAt(0).toLowerCase() + first.slice(1);
  const clauses: Clause[] = [];
  for (const part of parts.split("; ")) {
    const rule = GRAMMAR.map(([re, make]) => {
      const m = part.match(re);
      return m ? make(m) : undefined;
    }).find((c) => c !== undefined);
    if (!rule) return [];
    clauses.push(rule);
  }
  return clauses;
}

/** Options of {@link portableExamples}. */
export interface PortableOptions {
  /** Also fill every optional field that applies. */
  optional?: boolean;
}

/**
 * Every input variant of `action` a reader of the `portable` schema can build.
 */
export function portableExamples(
  schema: JsonSchema,
  action: string,
  options: PortableOptions = {},
): Example[] {
  const input = (schema.properties as Record<string, JsonSchema>).input!;
  return portableObject(input, action, undefined, options.optional ?? false);
}

function portableObject(
  node: JsonSchema,
  action: string,
  only: Clause["when"],
  optional: boolean,
): Example[] {
  const props = (node.properties ?? {}) as Record<string, JsonSchema>;
  const clauses = Object.fromEntries(
    Object.entries(props).map(([k, s]) => [k, parseClauses(s.description)]),
  );
  const applies = (c: Clause, v: Example) =>
    (c.actions === undefined || c.actions.includes(action)) &&
    (c.when === undefined || c.when.values.includes(String(v[c.when.key])));
  const fill = (key: string, all = true) => {
    const values = portableValues(props[key]!, action, clauses[key]!, optional)
      .filter((x) => only?.key !== key || only.values.includes(String(x)));
    return all ? values : values.slice(0, 1);
  };
  const add = (list: Example[], key: string, all = true) =>
    list.flatMap((v) => fill(key, all).map((x) => ({ ...v, [key]: x })));
  let out: Example[] = [{}];
  const required = new Set((node.required ?? []) as string[]);
  for (const key of Object.keys(props)) {
    const always = clauses[key]!.some((c) =>
      c.presence === "required" && !c.when && applies(c, {})
    );
    if (required.has(key) || always) out = add(out, key);
  }
  const groups = new Map<string, string[]>();
  for (const list of Object.values(clauses)) {
    for (const c of list) {
      if (c.presence === "one_of" && applies(c, {})) groups.set(c.keys!.join(), c.keys!);
    }
  }
  for (const keys of groups.values()) out = keys.flatMap((k) => add(out, k));
  const conditional = (presence: Clause["presence"], all: boolean) => {
    for (const key of Object.keys(props)) {
      out = out.flatMap((v) => {
        const hit = !(key in v) &&
          clauses[key]!.some((c) => c.presence === presence && c.when && applies(c, v));
        return hit ? add([v], key, all) : [v];
      });
    }
  };
  conditional("required", true);
  if (optional) {
    conditional("optional", false);
    for (const key of Object.keys(props)) {
      const hit = clauses[key]!.some((c) => c.presence === "optional" && !c.when && applies(c, {}));
      if (hit) out = out.map((v) => key in v ? v : add([v], key, false)[0]!);
    }
  }
  return node.additionalProperties === false ? out : out.map((v) => ({ ...v, x: "x" }));
}

function portableValues(
  node: JsonSchema,
  action: string,
  clauses: Clause[],
  optional: boolean,
): unknown[] {
  const anyOf = node.anyOf as JsonSchema[] | undefined;
  if (anyOf) return portableValues(anyOf.find((s) => s.type !== "null")!, action, [], optional);
  if (node.type === "object") {
    const only = clauses.find((c) => c.presence === "only" && c.actions!.includes(action));
    return portableObject(node, action, only?.when, optional);
  }
  return leafValues(node);
}

/**
 * Every input variant of `action` a reader of the `ltp` schema can build:
 * the branch titled `<action> input`, its required keys, and each choice of
 * every `oneOf` (a `const` inside a choice sets that key).
 */
export function ltpExamples(schema: JsonSchema, action: string): Example[] {
  const input = (schema.properties as Record<string, JsonSchema>).input!;
  const branch = (input.anyOf as JsonSchema[]).find((b) => b.title === `${action} input`);
  if (!branch) throw new Error(`Expected a branch titled "${action} input"`);
  return ltpValues(branch) as Example[];
}

function ltpValues(node: JsonSchema): unknown[] {
  const anyOf = node.anyOf as JsonSchema[] | undefined;
  if (anyOf) return ltpValues(anyOf.find((s) => s.type !== "null")!);
  const oneOf = node.oneOf as JsonSchema[] | undefined;
  if (node.type !== "object") return oneOf ? oneOf.flatMap(ltpValues) : leafValues(node);
  const props = (node.properties ?? {}) as Record<string, JsonSchema>;
  const add = (list: Example[], key: string) =>
    list.flatMap((v) => ltpValues(props[key]!).map((x) => ({ ...v, [key]: x })));
  let out: Example[] = [{}];
  for (const key of (node.required ?? []) as string[]) out = add(out, key);
  if (oneOf) {
    out = out.flatMap((v) =>
      oneOf.flatMap((choice) => {
        let picked: Example[] = [{ ...v }];
        for (
          const [k, s] of Object.entries((choice.properties ?? {}) as Record<string, JsonSchema>)
        ) {
          if (s.const !== undefined) picked = picked.map((p) => ({ ...p, [k]: s.const }));
        }
        for (const key of (choice.required ?? []) as string[]) {
          picked = picked.flatMap((p) => key in p ? [p] : add([p], key));
        }
        return picked;
      })
    );
  }
  const min = (node.minProperties ?? 0) as number;
  const padded = out.map((v) => {
    const more = Array.from({ length: Math.max(0, min - Object.keys(v).length) }, (_, i) => i);
    return { ...v, ...Object.fromEntries(more.map((i) => [`x${i}`, "x"])) };
  });
  return [...new Map(padded.map((v) => [JSON.stringify(v), v])).values()];
}

function leafValues(node: JsonSchema): unknown[] {
  if (Array.isArray(node.enum)) return node.enum;
  switch (node.type) {
    case "string":
      return ["x".repeat(Math.max(1, (node.minLength ?? 1) as number))];
    case "integer":
      return [(node.minimum ?? 0) as number];
    case "boolean":
      return [true];
    case "null":
      return [null];
    default:
      throw new Error(`Expected a leaf schema but found ${JSON.stringify(node)}`);
  }
}
