import assert from "node:assert/strict";
import type { JsonSchema } from "./_json_schema.ts";
import { feishuTool } from "./tool.ts";

// What common MCP clients and model APIs refuse in a tool's input schema,
// encoded as checks: `portable` must pass every one, `ltp` (the schema only
// LingTai's adapters consume) fails each, which shows the checks can fail.

/** Every schema node, each with its path, following schema positions only. */
function walk(schema: JsonSchema, path = "$"): [string, JsonSchema][] {
  const out: [string, JsonSchema][] = [[path, schema]];
  const sub = (s: unknown, p: string) => {
    if (typeof s === "object" && s !== null && !Array.isArray(s)) {
      out.push(...walk(s as JsonSchema, p));
    }
  };
  for (const [k, s] of Object.entries((schema.properties ?? {}) as Record<string, unknown>)) {
    sub(s, `${path}.properties.${k}`);
  }
  for (const word of ["anyOf", "oneOf", "allOf"]) {
    ((schema[word] ?? []) as unknown[]).forEach((s, i) => sub(s, `${path}.${word}[${i}]`));
  }
  for (const word of ["items", "not", "if", "then", "else", "additionalProperties"]) {
    sub(schema[word], `${path}.${word}`);
  }
  return out;
}

/** The nodes that use any of `words`, as `path: word`. */
function usesAnywhere(schema: JsonSchema, words: readonly string[]): string[] {
  return walk(schema).flatMap(([path, node]) =>
    words.filter((w) => w in node).map((w) => `${path}: ${w}`)
  );
}

function rootRules(schema: JsonSchema): string[] {
  const out = schema.type === "object" ? [] : ["root type is not object"];
  for (const w of ["oneOf", "allOf", "anyOf", "not", "if", "then", "else"]) {
    if (w in schema) out.push(`root: ${w}`);
  }
  return out;
}

/** Anthropic's tool API: an object root without combinators or conditionals. */
const anthropic = (s: JsonSchema) => rootRules(s);
/** OpenAI (GPT-4-class function calling): the same root, and no `not` or `if/then` anywhere. */
const openai = (s: JsonSchema) => [...rootRules(s), ...usesAnywhere(s, ["not", "if", "then"])];
/** Gemini: no `not`, `if`, `then`, `else` or `const` anywhere. */
const gemini = (s: JsonSchema) => usesAnywhere(s, ["not", "if", "then", "else", "const"]);
/** The AI SDK's Google provider drops an `anyOf` under an object without properties. */
const aiSdkGoogle = (s: JsonSchema) =>
  walk(s).filter(([, n]) => n.type === "object" && n.properties === undefined)
    .filter(([, n]) => ["anyOf", "oneOf", "allOf"].some((w) => w in n)).map(([p]) => p);
/** LangChain's adapter merges union branches and their required lists: no branch may require. */
const langchain = (s: JsonSchema) =>
  walk(s).flatMap(([path, n]) =>
    ["anyOf", "oneOf", "allOf"].flatMap((w) =>
      ((n[w] ?? []) as JsonSchema[]).some((b) => Array.isArray(b.required) && b.required.length)
        ? [`${path}.${w}`]
        : []
    )
  );

const RULES = { anthropic, openai, gemini, aiSdkGoogle, langchain };

for (const [name, rule] of Object.entries(RULES)) {
  Deno.test(`the portable schema passes the ${name} rules and the ltp schema does not`, () => {
    assert.deepEqual(rule(feishuTool("portable").inputSchema), []);
    assert.notDeepEqual(rule(feishuTool("ltp").inputSchema), []);
  });
}

Deno.test("the portable schema fits the 8 KB budget of clients that compact larger schemas; ltp does not", () => {
  const size = (s: JsonSchema) => new TextEncoder().encode(JSON.stringify(s)).length;
  assert.ok(size(feishuTool("portable").inputSchema) <= 8192);
  assert.ok(size(feishuTool("ltp").inputSchema) > 8192);
});

Deno.test("the rule checks see keywords nested deep inside properties", () => {
  const deep = {
    type: "object",
    properties: { a: { type: "object", properties: { b: { const: 1, not: {} } } } },
  };
  assert.deepEqual(gemini(deep), [
    "$.properties.a.properties.b: not",
    "$.properties.a.properties.b: const",
  ]);
  assert.deepEqual(anthropic(deep), []);
});
