import assert from "node:assert/strict";
import { Ajv } from "ajv";
import { FEISHU_ACTIONS } from "./actions.ts";
import type { JsonSchema } from "./_json_schema.ts";
import { ltpExamples, portableExamples } from "./testdata/schema_examples.ts";
import { feishuTool } from "./tool.ts";

// A simulation of how LangChain JS's MCP adapter reads a tool schema: every
// allOf/anyOf/oneOf is merged into the node that holds it, the branches'
// `required` lists are united, a closed object stays closed, and the
// conditional keywords it cannot express are dropped.

const COMBINATORS = ["allOf", "anyOf", "oneOf"] as const;
const DROPPED = ["if", "then", "else", "not"];

function merged(node: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (DROPPED.includes(key) || (COMBINATORS as readonly string[]).includes(key)) continue;
    out[key] = key === "properties"
      ? Object.fromEntries(
        Object.entries(value as Record<string, JsonSchema>).map(([k, s]) => [k, merged(s)]),
      )
      : key === "items"
      ? merged(value as JsonSchema)
      : value;
  }
  for (const word of COMBINATORS) {
    for (const branch of (node[word] ?? []) as JsonSchema[]) mergeInto(out, merged(branch));
  }
  return out;
}

function mergeInto(into: JsonSchema, from: JsonSchema): void {
  for (const [key, value] of Object.entries(from)) {
    const have = into[key];
    if (key === "type" && have !== undefined && have !== value) {
      into.type = [...new Set([have, value].flat())];
    } else if (key === "required") {
      into.required = [...new Set([...((have ?? []) as string[]), ...(value as string[])])];
    } else if (key === "properties") {
      const props = { ...(have ?? {}) as Record<string, JsonSchema> };
      for (const [k, s] of Object.entries(value as Record<string, JsonSchema>)) {
        if (props[k]) mergeInto(props[k] = { ...props[k] }, s);
        else props[k] = s;
      }
      into.properties = props;
    } else if (key === "additionalProperties") {
      into.additionalProperties = have === false || value === false ? false : value;
    } else if (key === "enum" && Array.isArray(have)) {
      into.enum = [...new Set([...have, ...(value as unknown[])])];
    } else if (have === undefined) {
      into[key] = value;
    }
  }
}

const compile = (schema: JsonSchema) =>
  new Ajv({ strictTypes: true, allowUnionTypes: true }).compile(merged(schema));
const call = (action: string, input: unknown) => ({ action, input, reasoning: "r" });

Deno.test("every action's examples still satisfy the portable schema as LangChain merges it", () => {
  const portable = feishuTool("portable").inputSchema;
  const validate = compile(portable);
  for (const action of FEISHU_ACTIONS) {
    for (const optional of [false, true]) {
      for (const input of portableExamples(portable, action, { optional })) {
        assert.equal(validate(call(action, input)), true, `${action} ${JSON.stringify(input)}`);
      }
    }
  }
});

Deno.test("the ltp schema as LangChain merges it refuses valid calls (required lists united)", () => {
  const ltp = feishuTool("ltp").inputSchema;
  const validate = compile(ltp);
  const refused = FEISHU_ACTIONS.filter((action) =>
    ltpExamples(ltp, action).some((input) => !validate(call(action, input)))
  );
  assert.deepEqual(refused, [...FEISHU_ACTIONS]);
});

Deno.test("the merge simulation unites required lists and keeps a closed object closed", () => {
  const got = merged({
    type: "object",
    additionalProperties: false,
    properties: { a: { type: "string" }, b: { type: "string" } },
    anyOf: [{ required: ["a"] }, { required: ["b"] }],
  });
  assert.deepEqual(got.required, ["a", "b"]);
  assert.equal(got.additionalProperties, false);
  assert.deepEqual(merged({ anyOf: [{ type: "string" }, { type: "null" }] }).type, [
    "string",
    "null",
  ]);
});
