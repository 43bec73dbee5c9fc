import assert from "node:assert/strict";
import { Ajv } from "ajv";
import type { z } from "zod";
import { FEISHU_ACTIONS } from "./actions.ts";
import { ACTION_INPUT_SCHEMAS, OutboundContentSchema } from "./inputs.ts";
import type { JsonSchema } from "./_json_schema.ts";
import { type Example, ltpExamples, portableExamples } from "./testdata/schema_examples.ts";
import { feishuTool } from "./tool.ts";
import { validateToolCall } from "./validate.ts";

// Examples built from each published schema alone, as a model would build
// them, must pass the server's own validation and a standard validator.

const ajv = () => new Ajv({ strictTypes: true, strictTuples: true });
const portable = feishuTool("portable").inputSchema;
const ltp = feishuTool("ltp").inputSchema;
const call = (action: string, input: Example) => ({ action, input, reasoning: "r" });

/** The keys a zod object, or any branch of a zod union, accepts. */
function zodKeys(schema: z.ZodType): string[] {
  const s = schema as unknown as { shape?: object; options?: z.ZodType[] };
  if (s.shape) return Object.keys(s.shape);
  return [...new Set((s.options ?? []).flatMap(zodKeys))];
}

for (
  const [name, schema, examples] of [
    ["portable", portable, (a: string) => portableExamples(portable, a)],
    [
      "portable (every optional field)",
      portable,
      (a: string) => portableExamples(portable, a, { optional: true }),
    ],
    ["ltp", ltp, (a: string) => ltpExamples(ltp, a)],
  ] as const
) {
  Deno.test(`examples built from the ${name} schema alone pass validateToolCall and ajv`, () => {
    const validate = ajv().compile(schema as JsonSchema);
    for (const action of FEISHU_ACTIONS) {
      const list = examples(action);
      assert.ok(list.length > 0, action);
      for (const input of list) {
        const args = call(action, input);
        const got = validateToolCall(args);
        assert.ok(got.ok, `${action} ${JSON.stringify(input)}: ${!got.ok && got.failure.message}`);
        assert.equal(validate(args), true, `${action} ${JSON.stringify(input)}`);
      }
    }
  });
}

Deno.test("the generators reach every choice: each content type for send, four for edit, both react operations", () => {
  for (
    const [name, list] of [
      ["portable", (a: string) => portableExamples(portable, a)],
      ["ltp", (a: string) => ltpExamples(ltp, a)],
    ] as const
  ) {
    const types = (a: string) =>
      new Set(list(a).map((e) => (e.content as Example | undefined)?.type).filter(Boolean));
    assert.equal(types("send").size, 11, name);
    assert.deepEqual([...types("edit")], ["text", "markdown", "post", "card"], name);
    assert.deepEqual(list("react").map((e) => e.operation), ["add", "remove"], name);
    const sources = list("send").map((e) =>
      ((e.content as Example | undefined)?.source as Example)?.type
    );
    assert.deepEqual([...new Set(sources.filter(Boolean))], ["path", "key"], name);
    assert.equal(list("remove_contact").length, 2, name);
  }
});

Deno.test("portable advertises exactly the keys each action's zod input accepts", () => {
  for (const action of FEISHU_ACTIONS) {
    const advertised = new Set(
      portableExamples(portable, action, { optional: true }).flatMap((e) => Object.keys(e)),
    );
    assert.deepEqual([...advertised].sort(), zodKeys(ACTION_INPUT_SCHEMAS[action]).sort(), action);
  }
});

Deno.test("portable advertises exactly the keys each content type's zod branch accepts", () => {
  const branches = (OutboundContentSchema as unknown as { options: z.ZodType[] }).options;
  const byType = new Map<unknown, Set<string>>();
  for (const e of portableExamples(portable, "send", { optional: true })) {
    const content = e.content as Example | undefined;
    if (!content) continue;
    const keys = byType.get(content.type) ?? new Set();
    byType.set(content.type, keys);
    for (const k of Object.keys(content)) keys.add(k);
  }
  assert.equal(byType.size, branches.length);
  for (const branch of branches) {
    const type = (branch as unknown as { shape: { type: { value: unknown } } }).shape.type.value;
    assert.deepEqual([...byType.get(type)!].sort(), zodKeys(branch).sort(), String(type));
  }
});
