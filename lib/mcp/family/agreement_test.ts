import assert from "node:assert/strict";
import { Ajv } from "ajv";
import fc from "fast-check";
import { FEISHU_ACTIONS, type FeishuAction } from "./actions.ts";
import { contentSchema } from "./_content_schema.ts";
import { ACTION_INPUT_SCHEMAS, EditableContentSchema, OutboundContentSchema } from "./inputs.ts";
import { actionInputSchema, feishuInputSchema, type JsonSchema } from "./schema.ts";
import { validateToolCall, VALIDATION_MESSAGES } from "./validate.ts";
import { collectPools, schemaArbitraries, toolCallArbitrary } from "./testdata/schema_arbitrary.ts";

const SEED = 20_250_611;
const ajv = new Ajv({ strictTypes: true });
const published = feishuInputSchema();
const pools = collectPools(published);
const branchOf = (action: FeishuAction): JsonSchema => {
  const branch =
    (published.properties.input.anyOf as JsonSchema[])[FEISHU_ACTIONS.indexOf(action)]!;
  const { title: _title, ...schema } = branch;
  return schema;
};

/** What MCP hands us: parsed JSON, so own `__proto__` keys and no undefined. */
const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value) ?? "null");

Deno.test("validateToolCall() accepts exactly what ajv accepts under the published schema", () => {
  const ajvValidate = ajv.compile(published);
  const runs = 10_000;
  const acceptedBy = new Map<string, number>();
  const refusedWith = new Map<string, number>();
  let acceptedWithWait = 0;
  fc.assert(
    fc.property(toolCallArbitrary(branchOf, pools), (raw) => {
      const args = asJson(raw);
      // A client's root wait_for_previous is ignored: judge the call without it.
      const { wait_for_previous: _ignored, ...rest } = (args ?? {}) as Record<string, unknown>;
      const want = ajvValidate(
        args !== null && typeof args === "object" && !Array.isArray(args) ? rest : args,
      );
      const got = validateToolCall(args);
      assert.equal(got.ok, want, `ajv says ${want} for ${JSON.stringify(args)}`);
      if (got.ok) {
        const { action, input } = args as { action: string; input: unknown };
        assert.deepEqual(got.call, { action, input });
        acceptedBy.set(action, (acceptedBy.get(action) ?? 0) + 1);
        if (Object.hasOwn(args as object, "wait_for_previous")) acceptedWithWait++;
      } else {
        // Count by the step's stable prefix (the part before the problem).
        const prefix = got.failure.message.split(": ")[0]!;
        // Every refusal is told as a placed problem, never the catch-all.
        const placed = got.failure.details.every((d) => !d.message.startsWith("not accepted for"));
        assert.ok(placed, got.failure.message);
        refusedWith.set(prefix, (refusedWith.get(prefix) ?? 0) + 1);
      }
    }),
    { seed: SEED, numRuns: runs },
  );
  // The generator must keep both sides busy, or the agreement means little.
  const accepted = [...acceptedBy.values()].reduce((a, b) => a + b, 0);
  assert.ok(accepted > runs * 0.2 && accepted < runs * 0.8, `accepted ${accepted} of ${runs}`);
  for (const action of FEISHU_ACTIONS) {
    assert.ok((acceptedBy.get(action) ?? 0) > 50, `${action}: ${acceptedBy.get(action)}`);
  }
  assert.ok(acceptedWithWait > 0, "no accepted call carried wait_for_previous");
  for (const message of Object.values(VALIDATION_MESSAGES)) {
    assert.ok((refusedWith.get(message) ?? 0) > 25, `${message}: ${refusedWith.get(message)}`);
  }
});

Deno.test("ACTION_INPUT_SCHEMAS agree with ajv on every published input branch", () => {
  const { fromSchema, mutate } = schemaArbitraries(pools);
  const runs = 1_000;
  for (const action of FEISHU_ACTIONS) {
    const ajvValidate = ajv.compile(actionInputSchema(action));
    let accepted = 0;
    fc.assert(
      fc.property(mutate(fromSchema(branchOf(action))), (raw) => {
        const input = asJson(raw);
        const want = ajvValidate(input);
        assert.equal(ACTION_INPUT_SCHEMAS[action].safeParse(input).success, want, action);
        if (want) accepted++;
      }),
      { seed: SEED, numRuns: runs },
    );
    assert.ok(accepted > runs * 0.1 && accepted < runs * 0.95, `${action}: accepted ${accepted}`);
  }
});

Deno.test("OutboundContentSchema and EditableContentSchema agree with ajv on content values", () => {
  const { fromSchema } = schemaArbitraries(pools);
  const full = contentSchema();
  const pairs = [
    [full, OutboundContentSchema],
    [contentSchema({ editable: true }), EditableContentSchema],
  ] as const;
  for (const [schema, zod] of pairs) {
    const ajvValidate = ajv.compile(schema);
    const acceptedTypes = new Set<unknown>();
    // Draw from the full union for both, so the editable side sees media too.
    fc.assert(
      fc.property(fromSchema(full), (raw) => {
        const content = asJson(raw);
        const want = ajvValidate(content);
        assert.equal(zod.safeParse(content).success, want, JSON.stringify(content));
        if (want) acceptedTypes.add((content as { type: unknown }).type);
      }),
      { seed: SEED, numRuns: 3_000 },
    );
    assert.equal(acceptedTypes.size, (schema.oneOf as unknown[]).length);
  }
});
