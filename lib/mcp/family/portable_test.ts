import assert from "node:assert/strict";
import { Ajv } from "ajv";
import { FEISHU_ACTIONS } from "./actions.ts";
import { CONTENT_TYPES, contentBranchSchema, mediaSourceSchema } from "./_content_schema.ts";
import { PORTABLE_HINTS, TOOL_DESCRIPTION } from "./descriptions.ts";
import { feishuTool } from "./mod.ts";
import { portableInputSchema } from "./portable.ts";
import { actionInputSchema, type JsonSchema } from "./schema.ts";
import { parseClauses } from "./testdata/schema_examples.ts";

const props = (s: JsonSchema) => (s.properties ?? {}) as Record<string, JsonSchema>;
const unwrap = (s: JsonSchema): JsonSchema =>
  (s.anyOf as JsonSchema[] | undefined)?.find((b) => b.type !== "null") ?? s;
const input = () => portableInputSchema().properties.input;
const content = () => props(input()).content!;
const source = () => props(content()).source!;

/** Every schema node, with its path, following only schema positions. */
function nodes(schema: JsonSchema, path = "$"): [string, JsonSchema][] {
  const out: [string, JsonSchema][] = [[path, schema]];
  for (const [key, sub] of Object.entries(props(schema))) {
    out.push(...nodes(sub, `${path}.properties.${key}`));
  }
  for (const word of ["anyOf", "oneOf", "allOf"]) {
    ((schema[word] ?? []) as JsonSchema[]).forEach((s, i) =>
      out.push(...nodes(s, `${path}.${word}[${i}]`))
    );
  }
  for (const word of ["items", "not", "if", "then", "else"]) {
    if (typeof schema[word] === "object") out.push(...nodes(schema[word] as JsonSchema, path));
  }
  return out;
}

const ALLOWED = new Set([
  "type",
  "description",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "enum",
  "minLength",
  "minimum",
  "anyOf",
]);

Deno.test("portableInputSchema() has a closed object root with the four keys and no combinator", () => {
  const s = portableInputSchema();
  assert.deepEqual(Object.keys(s).sort(), [
    "additionalProperties",
    "properties",
    "required",
    "type",
  ]);
  assert.equal(s.type, "object");
  assert.deepEqual(Object.keys(s.properties), ["action", "input", "reasoning", "summarize"]);
  assert.deepEqual(s.properties.action.enum, [...FEISHU_ACTIONS]);
  assert.equal(s.properties.reasoning.type, "string");
  assert.equal(s.properties.summarize.type, "boolean");
  assert.deepEqual(s.required, ["action", "input", "reasoning"]);
  assert.equal(s.additionalProperties, false);
});

Deno.test("portableInputSchema() uses only the portable keywords, and anyOf only as [S, null]", () => {
  for (const [path, node] of nodes(portableInputSchema())) {
    for (const word of Object.keys(node)) assert.ok(ALLOWED.has(word), `${path} uses ${word}`);
    if (node.anyOf !== undefined) {
      const anyOf = node.anyOf as JsonSchema[];
      assert.equal(anyOf.length, 2, path);
      assert.deepEqual(anyOf[1], { type: "null" }, path);
      assert.notEqual(anyOf[0]!.type, "null", path);
    }
  }
});

Deno.test("portableInputSchema() stays under Codex's 5,000 bytes with every field described", () => {
  // Codex strips every description from a tool schema above 5,000 bytes of compact JSON.
  const bytes = new TextEncoder().encode(JSON.stringify(portableInputSchema())).length;
  assert.ok(bytes < 5000, `${bytes} bytes`);
  const root = portableInputSchema().properties as Record<string, JsonSchema>;
  for (
    const [level, object] of [
      ["root", root],
      ...[input(), content(), source()].map((o, i) =>
        [["input", "content", "source"][i]!, props(o)] as const
      ),
    ] as const
  ) {
    for (const [key, sub] of Object.entries(object)) {
      assert.ok(
        typeof sub.description === "string" && sub.description.length > 3,
        `${level}.${key}`,
      );
    }
  }
});

Deno.test("portableInputSchema() compiles under ajv's strict schema and type checks", () => {
  const validate = new Ajv({ strictTypes: true, strictTuples: true }).compile(
    portableInputSchema(),
  );
  assert.equal(validate({ action: "manual", input: {}, reasoning: "r" }), true);
  assert.equal(validate({ action: "manual", input: { nope: 1 }, reasoning: "r" }), false);
});

Deno.test("portable input: every object is closed except the free-form post and card bodies", () => {
  const open = nodes(input()).filter(([, n]) => n.type === "object")
    .filter(([, n]) => n.additionalProperties !== false).map(([path]) => path);
  assert.deepEqual(open, [
    "$.properties.content.properties.post",
    "$.properties.content.properties.card",
  ]);
  assert.equal(input().required, undefined);
  assert.deepEqual(content().required, ["type"]);
  assert.deepEqual(source().required, ["type"]);
});

Deno.test("portable input properties are the union of the 13 ltp branches' properties, in order", () => {
  const union = [
    ...new Set(FEISHU_ACTIONS.flatMap((a) => Object.keys(props(actionInputSchema(a))))),
  ];
  assert.deepEqual(Object.keys(props(input())), union);
});

Deno.test("portable content and source properties are the union of their ltp branches' properties", () => {
  const contentUnion = new Set(
    CONTENT_TYPES.flatMap((t) => Object.keys(props(contentBranchSchema(t)))),
  );
  assert.deepEqual(Object.keys(props(content())), [...contentUnion]);
  const sourceUnion = new Set(
    (mediaSourceSchema().oneOf as JsonSchema[]).flatMap((b) => Object.keys(props(b))),
  );
  assert.deepEqual(Object.keys(props(source())), [...sourceUnion]);
  assert.deepEqual(props(content()).type!.enum, [...CONTENT_TYPES]);
  assert.deepEqual(props(source()).type!.enum, ["path", "key"]);
});

Deno.test("portable input says where each field is required, in the clause grammar", () => {
  const d = (key: string) => props(input())[key]!.description;
  assert.equal(d("chat_id"), "Required for read; optional for search, add_contact.");
  assert.match(d("receive_id") as string, /^Required for send\. /);
  assert.equal(d("text"), "Exactly one of text or content for send, reply, edit.");
  assert.match(
    d("content") as string,
    /^Exactly one of text or content for send, reply, edit; edit takes only type text, markdown, post, card\. /,
  );
  assert.equal(d("emoji_type"), "Required for react when operation is add.");
  assert.equal(
    d("alias"),
    "Required for add_contact; exactly one of alias or open_id for remove_contact.",
  );
  assert.equal(props(content()).caption!.description, "Optional when type is image, video.");
  assert.match(props(source()).path!.description as string, /^Required when type is path\. /);
});

Deno.test("portable: every field a branch may omit carries at least one parseable clause", () => {
  for (const object of [input(), content(), source()]) {
    const required = new Set((object.required ?? []) as string[]);
    for (const [key, sub] of Object.entries(props(object))) {
      if (required.has(key)) continue;
      assert.ok(parseClauses(sub.description).length > 0, `${key}: ${sub.description}`);
    }
  }
});

Deno.test("portable publishes the loosest type where actions differ (nullable chat_id, plain message_id)", () => {
  const p = props(input());
  assert.deepEqual(p.chat_id!.anyOf, [{ type: "string" }, { type: "null" }]);
  assert.deepEqual(unwrap(p.message_id!), {
    type: "string",
    description: p.message_id!.description,
  });
  assert.deepEqual(p.limit!.anyOf, [{ type: "integer", minimum: 0 }, { type: "null" }]);
});

Deno.test("PORTABLE_HINTS name only properties the portable schema has at that level", () => {
  const levels = { input: input(), content: content(), source: source() };
  for (const [level, hints] of Object.entries(PORTABLE_HINTS)) {
    const known = props(levels[level as keyof typeof levels]);
    for (const [key, hint] of Object.entries(hints)) {
      assert.ok(key in known, `${level}.${key}`);
      assert.ok((known[key]!.description as string).endsWith(hint), `${level}.${key}`);
    }
  }
});

Deno.test("feishuTool('portable') publishes the portable schema with the same name and description", () => {
  const tool = feishuTool("portable");
  assert.deepEqual(Object.keys(tool), ["name", "description", "inputSchema"]);
  assert.equal(tool.name, "feishu");
  assert.equal(tool.description, TOOL_DESCRIPTION);
  assert.deepEqual(tool.inputSchema, portableInputSchema());
});

Deno.test("portableInputSchema() is plain JSON and fresh on every call", () => {
  const a = portableInputSchema();
  assert.deepEqual(JSON.parse(JSON.stringify(a)), a);
  (props(a.properties.input).content!.properties as Record<string, unknown>).extra = {};
  assert.equal("extra" in props(content()), false);
});
