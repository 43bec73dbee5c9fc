/**
 * Test-only fast-check generators built from the published schema itself:
 * mostly well-formed values, mutated by extra keys, wrong types, nulls,
 * missing required keys, both or neither of exclusive keys, and foreign enum
 * values (which swaps content branches and actions). Used by the agreement
 * test; production code never imports it.
 * @module
 */

import fc from "fast-check";
import { FEISHU_ACTIONS, type FeishuAction } from "../actions.ts";
import type { JsonSchema } from "../_json_schema.ts";

/** A generator of JSON-ish values. */
export type Arb = fc.Arbitrary<unknown>;

/** Knobs and pools of {@link schemaArbitraries}. */
export interface SchemaPools {
  /** Property names the schema knows, plus awkward ones. */
  keys: string[];
  /** Enum values the schema knows, plus near misses. */
  strings: string[];
}

/** `arb` with probability `1 - 1/n`, else undefined. */
function usually<T>(arb: fc.Arbitrary<T>, n: number): fc.Arbitrary<T | undefined> {
  return fc.option(arb, { freq: n, nil: undefined });
}

/** `arb` with probability `1/n`, else undefined. */
function rarely<T>(arb: fc.Arbitrary<T>, n: number): fc.Arbitrary<T | undefined> {
  return fc.oneof({ weight: n - 1, arbitrary: fc.constant(undefined) }, {
    weight: 1,
    arbitrary: arb,
  });
}

/**
 * Every property name and enum value found anywhere in a schema, plus the
 * awkward extras.
 *
 * @example
 * ```ts
 * import { collectPools } from "./schema_arbitrary.ts";
 * import assert from "node:assert/strict";
 * const pools = collectPools({ properties: { a: { enum: ["v"] } } });
 * assert.ok(pools.keys.includes("a") && pools.keys.includes("__proto__"));
 * assert.ok(pools.strings.includes("v"));
 * ```
 */
export function collectPools(schema: JsonSchema): SchemaPools {
  const keys = new Set([
    "__proto__",
    "constructor",
    "toString",
    "_reasoning",
    "extra",
    "wait_for_previous",
  ]);
  const strings = new Set(["", "x", "Send", "ou_1", "oc_1", "/tmp/a.png", "https://a/b", "1.0"]);
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (typeof node !== "object" || node === null) return;
    const s = node as JsonSchema;
    if (typeof s.properties === "object" && s.properties !== null) {
      for (const key of Object.keys(s.properties)) keys.add(key);
    }
    if (Array.isArray(s.enum)) {
      for (const v of s.enum) {
        if (typeof v === "string") strings.add(v);
      }
    }
    if (typeof s.const === "string") strings.add(s.const);
    Object.values(s).forEach(walk);
  };
  walk(schema);
  return { keys: [...keys], strings: [...strings] };
}

/** Builds mutating generators for schema nodes, sharing one set of pools. */
export function schemaArbitraries(pools: SchemaPools): {
  fromSchema: (schema: JsonSchema) => Arb;
  anyJson: Arb;
  mutate: (arb: Arb) => Arb;
  key: fc.Arbitrary<string>;
} {
  const anyJson: Arb = fc.jsonValue({ maxDepth: 2 });
  const key = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...pools.keys) },
    { weight: 1, arbitrary: fc.string({ maxLength: 3 }) },
  );
  const strings = fc.oneof(
    fc.constantFrom(...pools.strings),
    fc.string({ maxLength: 4 }),
    fc.string({ unit: "binary", maxLength: 2 }),
  );
  const wrong: Arb = fc.oneof(fc.constant(null), anyJson, fc.boolean(), fc.integer(), strings);
  const mutate = (arb: Arb): Arb =>
    fc.oneof({ weight: 14, arbitrary: arb }, { weight: 1, arbitrary: wrong });

  const fromSchema = (s: JsonSchema): Arb => {
    const branches = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
    if (s.type === undefined && branches !== undefined) {
      return fc.oneof(...branches.map(fromSchema));
    }
    switch (s.type) {
      case "object":
        return objectArb(s);
      case "string":
        return stringArb(s);
      case "integer":
        return fc.oneof(
          { weight: 6, arbitrary: fc.integer({ min: -3, max: 60 }) },
          { weight: 1, arbitrary: fc.constantFrom(1.5, -0, 2 ** 53, 2 ** 53 + 2, 1e300) },
        );
      case "boolean":
        return fc.boolean();
      case "null":
        return fc.constant(null);
      default:
        throw new Error(`Expected a known schema type but found ${JSON.stringify(s.type)}`);
    }
  };

  const stringArb = (s: JsonSchema): Arb => {
    if (Array.isArray(s.enum)) {
      return fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...s.enum) }, {
        weight: 1,
        arbitrary: strings,
      });
    }
    if (s.minLength === 1) {
      return fc.oneof({ weight: 8, arbitrary: fc.string({ minLength: 1, maxLength: 6 }) }, {
        weight: 1,
        arbitrary: fc.constant(""),
      });
    }
    return fc.oneof(fc.string({ maxLength: 6 }), strings);
  };

  const objectArb = (s: JsonSchema): Arb => {
    const props = Object.entries((s.properties ?? {}) as Record<string, JsonSchema>);
    const required = new Set((s.required ?? []) as string[]);
    const declared = props.map(([name, sub]) =>
      usually(mutate(fromSchema(sub)).map((v) => [name, v] as const), required.has(name) ? 14 : 2)
    );
    const extras = s.additionalProperties === false
      ? rarely(fc.tuple(key, anyJson), 16).map((e) => e ? [e] : [])
      : fc.array(fc.tuple(key, anyJson), { maxLength: 3 });
    return fc.tuple(fc.tuple(...declared), extras).map(([entries, more]) =>
      Object.fromEntries([...entries.filter((e) => e !== undefined), ...more])
    );
  };

  return { fromSchema, anyJson, mutate, key };
}

/**
 * Tool-call arguments: mostly `{action, input, reasoning, summarize?}` with an
 * input drawn from the action's branch (now and then another action's), each
 * root key sometimes missing, mistyped or joined by a stray key; sometimes an
 * arbitrary JSON value instead.
 */
export function toolCallArbitrary(
  branchOf: (action: FeishuAction) => JsonSchema,
  pools: SchemaPools,
): Arb {
  const { fromSchema, anyJson, mutate, key } = schemaArbitraries(pools);
  const inputs = Object.fromEntries(
    FEISHU_ACTIONS.map((a) => [a, fromSchema(branchOf(a))]),
  ) as Record<FeishuAction, Arb>;
  const anyInput = fc.constantFrom(...FEISHU_ACTIONS).chain((a) => inputs[a]);
  const call = fc.constantFrom(...FEISHU_ACTIONS).chain((action) =>
    fc.tuple(
      mutate(fc.constant(action)),
      usually(
        mutate(
          fc.oneof({ weight: 10, arbitrary: inputs[action] }, { weight: 1, arbitrary: anyInput }),
        ),
        30,
      ),
      usually(mutate(fc.string({ maxLength: 5 })), 20),
      usually(mutate(fc.boolean()), 2),
      rarely(fc.tuple(key, anyJson), 20),
    ).map(([a, input, reasoning, summarize, stray]) => {
      const entries: [string, unknown][] = [["action", a]];
      if (input !== undefined) entries.push(["input", input]);
      if (reasoning !== undefined) entries.push(["reasoning", reasoning]);
      if (summarize !== undefined) entries.push(["summarize", summarize]);
      if (stray !== undefined) entries.push(stray);
      return Object.fromEntries(entries);
    })
  );
  return fc.oneof({ weight: 14, arbitrary: call }, { weight: 1, arbitrary: anyJson });
}
