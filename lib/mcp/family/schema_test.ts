import assert from "node:assert/strict";
import { Ajv } from "ajv";
import { FEISHU_ACTIONS } from "./actions.ts";
import { ACTION_DESCRIPTION, TOOL_DESCRIPTION } from "./descriptions.ts";
import { feishuTool } from "./mod.ts";
import { actionInputSchema, feishuInputSchema, type JsonSchema } from "./schema.ts";

/** ajv in its default strict mode, with type and tuple checks made errors. */
const strictAjv = () => new Ajv({ strictTypes: true, strictTuples: true });

function branches(): JsonSchema[] {
  return feishuInputSchema().properties.input.anyOf as JsonSchema[];
}

Deno.test("feishuInputSchema() compiles as draft-07 under ajv's strict schema and type checks", () => {
  const validate = strictAjv().compile(feishuInputSchema());
  assert.equal(validate({ action: "manual", input: {}, reasoning: "r" }), true);
});

Deno.test("feishuInputSchema() has a closed root with three required keys", () => {
  const s = feishuInputSchema();
  assert.equal(s.type, "object");
  assert.equal(s.additionalProperties, false);
  assert.deepEqual(s.required, ["action", "input", "reasoning"]);
  assert.deepEqual(Object.keys(s.properties), ["action", "input", "reasoning", "summarize"]);
  assert.equal(s.properties.input.type, "object");
  assert.equal(s.properties.reasoning.type, "string");
  assert.equal(s.properties.summarize.type, "boolean");
});

Deno.test("feishuInputSchema() lists the 13 actions in canonical order", () => {
  assert.deepEqual(feishuInputSchema().properties.action.enum, [
    "send",
    "check",
    "read",
    "reply",
    "react",
    "search",
    "delete",
    "edit",
    "contacts",
    "add_contact",
    "remove_contact",
    "accounts",
    "manual",
  ]);
});

Deno.test("feishuInputSchema() ties input to action with exactly 13 if/then entries", () => {
  const s = feishuInputSchema();
  assert.equal(s.allOf.length, 13);
  s.allOf.forEach((entry, i) => {
    const action = FEISHU_ACTIONS[i]!;
    assert.deepEqual(entry, {
      if: { properties: { action: { const: action } }, required: ["action"] },
      then: { properties: { input: actionInputSchema(action) } },
    });
  });
});

Deno.test("feishuInputSchema() publishes input as anyOf of 13 titled branches, never oneOf", () => {
  const input = feishuInputSchema().properties.input;
  assert.equal("oneOf" in input, false);
  const list = branches();
  assert.equal(list.length, 13);
  list.forEach((branch, i) => {
    const action = FEISHU_ACTIONS[i]!;
    const { title, ...rest } = branch;
    assert.equal(title, `${action} input`);
    assert.deepEqual(rest, actionInputSchema(action));
  });
});

Deno.test("feishuInputSchema() lets exactly check, contacts, accounts and manual accept {}", () => {
  const ajv = strictAjv();
  const acceptEmpty = branches().filter((b) => ajv.compile(b)({})).map((b) => b.title);
  assert.deepEqual(acceptEmpty, [
    "check input",
    "contacts input",
    "accounts input",
    "manual input",
  ]);
});

Deno.test('actionInputSchema() gives send required == ["receive_id"] and exactly one of text/content', () => {
  const send = actionInputSchema("send");
  assert.deepEqual(send.required, ["receive_id"]);
  assert.deepEqual(send.oneOf, [{ required: ["text"] }, { required: ["content"] }]);
});

Deno.test("actionInputSchema() declares reasoning or summarize in no branch", () => {
  for (const action of FEISHU_ACTIONS) {
    const props = Object.keys(actionInputSchema(action).properties as object);
    assert.equal(props.includes("reasoning") || props.includes("summarize"), false, action);
  }
});

Deno.test("actionInputSchema() closes every object except the free-form post and card bodies", () => {
  const open: string[] = [];
  const walk = (node: unknown, path: string): void => {
    if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${path}[${i}]`));
    if (typeof node !== "object" || node === null) return;
    const s = node as JsonSchema;
    if (s.type === "object" && s.additionalProperties !== false) open.push(path);
    for (const [key, value] of Object.entries(s)) walk(value, `${path}.${key}`);
  };
  for (const action of FEISHU_ACTIONS) walk(actionInputSchema(action), action);
  assert.deepEqual(
    open.sort(),
    [
      "reply.properties.content.oneOf[2].properties.post",
      "reply.properties.content.oneOf[3].properties.card",
      "send.properties.content.oneOf[2].properties.post",
      "send.properties.content.oneOf[3].properties.card",
      "edit.properties.content.oneOf[2].properties.post",
      "edit.properties.content.oneOf[3].properties.card",
    ].sort(),
  );
});

Deno.test("actionInputSchema() gives send and reply the full content union and edit four branches", () => {
  const types = (action: "send" | "reply" | "edit") =>
    ((actionInputSchema(action).properties as Record<string, JsonSchema>).content!
      .oneOf as JsonSchema[]).map((b) => (b.properties as Record<string, JsonSchema>).type!.enum);
  const all = [
    "text",
    "markdown",
    "post",
    "card",
    "image",
    "file",
    "audio",
    "video",
    "share_chat",
    "share_user",
    "sticker",
  ].map((t) => [t]);
  assert.deepEqual(types("send"), all);
  assert.deepEqual(types("reply"), all);
  assert.deepEqual(types("edit"), all.slice(0, 4));
});

Deno.test("actionInputSchema() rejects a negative read limit in the schema itself", () => {
  const props = actionInputSchema("read").properties as Record<string, JsonSchema>;
  assert.deepEqual(props.limit!.anyOf, [{ type: "integer", minimum: 0 }, { type: "null" }]);
  const validate = strictAjv().compile(actionInputSchema("read"));
  assert.equal(validate({ chat_id: "oc_1", limit: -1 }), false);
  assert.equal(validate({ chat_id: "oc_1", limit: null }), true);
});

Deno.test("actionInputSchema() gives send and reply an optional non-empty idempotency_key", () => {
  for (const action of ["send", "reply"] as const) {
    const s = actionInputSchema(action);
    const key = (s.properties as Record<string, JsonSchema>).idempotency_key!;
    assert.equal(key.type, "string");
    assert.equal(key.minLength, 1);
    assert.equal((s.required as string[]).includes("idempotency_key"), false);
  }
});

Deno.test("actionInputSchema() pairs react add with emoji_type and remove with reaction_id", () => {
  const validate = strictAjv().compile(actionInputSchema("react"));
  const m = { message_id: "m" };
  assert.equal(validate({ ...m, operation: "add", emoji_type: "SMILE" }), true);
  assert.equal(validate({ ...m, operation: "remove", reaction_id: "r" }), true);
  assert.equal(validate({ ...m, operation: "add", reaction_id: "r" }), false);
  assert.equal(validate({ ...m, operation: "remove", emoji_type: "SMILE" }), false);
  assert.equal(validate({ ...m, operation: "add", emoji_type: "S", reaction_id: "r" }), false);
});

Deno.test("feishuInputSchema() is plain JSON and fresh on every call", () => {
  const a = feishuInputSchema();
  assert.deepEqual(JSON.parse(JSON.stringify(a)), a);
  (a.properties.action.enum as string[]).push("extra");
  assert.equal((feishuInputSchema().properties.action.enum as string[]).length, 13);
});

Deno.test("feishuTool('ltp') is byte for byte the schema LingTai's adapters consume (digest pinned)", async () => {
  const text = JSON.stringify(feishuTool("ltp").inputSchema);
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  assert.equal(text.length, 28_279);
  assert.equal(hex, "98539712d948d8ff064ac43f5fa0b3f116ad676d400f8b2d6ef6e22d7dc06c52");
  assert.equal(JSON.stringify(feishuTool().inputSchema), text);
});

Deno.test("feishuTool() publishes one tool named feishu with the family schema", () => {
  const tool = feishuTool();
  assert.deepEqual(Object.keys(tool), ["name", "description", "inputSchema"]);
  assert.equal(tool.name, "feishu");
  assert.equal(tool.description, TOOL_DESCRIPTION);
  assert.deepEqual(tool.inputSchema, feishuInputSchema());
  assert.equal(tool.inputSchema.properties.action.description, ACTION_DESCRIPTION);
});
