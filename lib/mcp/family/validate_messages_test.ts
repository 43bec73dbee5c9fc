import assert from "node:assert/strict";
import { FEISHU_ACTIONS } from "./actions.ts";
import { call, input, ROOT, testRefusals, type Want } from "./testdata/refusals.ts";
import { validateToolCall } from "./validate.ts";

// What a refusal tells the caller: one invalid call of each action naming
// the offending path, every problem in `details`, the keys accepted there,
// the ignored `wait_for_previous`, and never a value the caller gave.

const M = "main:oc_1:om_1";

const perAction: [string, unknown, Want][] = [
  [
    "send without receive_id",
    call("send", { text: "hi" }),
    input(
      "input.receive_id: required for action 'send'",
    ),
  ],
  [
    "check with an unknown key",
    call("check", { chat_id: "oc_1" }),
    input(
      "input.chat_id: unknown key for action 'check'",
    ),
  ],
  [
    "read with a string limit",
    call("read", { chat_id: "oc_1", limit: "5" }),
    input(
      "input.limit: expected an integer >= 0 or null",
    ),
  ],
  [
    "reply with both text and content",
    call("reply", {
      message_id: M,
      text: "a",
      content: { type: "text", text: "a" },
    }),
    input("input: exactly one of text or content for action 'reply'"),
  ],
  [
    "react add with a reaction_id",
    call("react", {
      message_id: M,
      operation: "add",
      emoji_type: "OK",
      reaction_id: "r",
    }),
    input("input.reaction_id: not allowed when operation is 'add'"),
  ],
  [
    "search with a numeric query",
    call("search", { query: 5 }),
    input(
      "input.query: expected a string",
    ),
  ],
  [
    "delete without message_id",
    call("delete", {}),
    input(
      "input.message_id: required for action 'delete'",
    ),
  ],
  [
    "edit with audio content",
    call("edit", {
      message_id: M,
      content: { type: "audio", source: { type: "key", key: "k" } },
    }),
    input("input.content.type: expected one of text, markdown, post, card for action 'edit'"),
  ],
  [
    "contacts with an unknown key",
    call("contacts", { alias: "bob" }),
    input(
      "input.alias: unknown key for action 'contacts'",
    ),
  ],
  [
    "add_contact without open_id",
    call("add_contact", { alias: "bob" }),
    input(
      "input.open_id: required for action 'add_contact'",
    ),
  ],
  [
    "remove_contact with neither alias nor open_id",
    call("remove_contact", { account: "a" }),
    input(
      "input: exactly one of alias or open_id for action 'remove_contact'",
    ),
  ],
  [
    "accounts with an unknown key",
    call("accounts", { verbose: true }),
    input(
      "input.verbose: unknown key for action 'accounts'",
    ),
  ],
  [
    "manual with an unknown key",
    call("manual", { section: "errors" }),
    input(
      "input.section: unknown key for action 'manual'",
    ),
  ],
];

Deno.test("the per-action cases cover each of the 13 actions once", () => {
  const actions = perAction.map(([, args]) => (args as { action: string }).action);
  assert.deepEqual(actions, [...FEISHU_ACTIONS]);
});

testRefusals(perAction);

/** The failure of a call that must be refused. */
function refusal(args: unknown) {
  const result = validateToolCall(args);
  if (result.ok) throw new Error(`Expected a refusal of ${JSON.stringify(args)}`);
  return result.failure;
}

Deno.test("details list every problem of the input, not only the first", () => {
  const f = refusal(call("send", {
    receive_id_type: "phone",
    text: "hi",
    extra: 1,
    placeholder: "yes",
  }));
  assert.deepEqual(f.details, [
    { path: "input.receive_id", message: "required for action 'send'" },
    {
      path: "input.receive_id_type",
      message: "expected one of open_id, user_id, email, chat_id, union_id or null",
    },
    { path: "input.placeholder", message: "expected a boolean or null" },
    { path: "input.extra", message: "unknown key for action 'send'" },
  ]);
  // The message names every problem too, so one retry can fix them all.
  assert.equal(
    f.message,
    "invalid feishu input: input.receive_id: required for action 'send'; " +
      "input.receive_id_type: expected one of open_id, user_id, email, chat_id, union_id or null; " +
      "input.placeholder: expected a boolean or null; input.extra: unknown key for action 'send'",
  );
});

Deno.test("send with input {} names both missing things; a long list is cut with a count", () => {
  const empty = refusal(call("send", {}));
  assert.equal(
    empty.message,
    "invalid feishu input: input: exactly one of text or content for action 'send'; " +
      "input.receive_id: required for action 'send'",
  );
  const keys = Object.fromEntries([..."abcdefgh"].map((k) => [`x_${k}`, 1]));
  const many = refusal(call("check", keys));
  assert.equal(many.details.length, 8);
  assert.equal(
    many.message,
    "invalid feishu input: " +
      [..."abcde"].map((k) => `input.x_${k}: unknown key for action 'check'`).join("; ") +
      "; and 3 more (see details)",
  );
});

Deno.test("details follow the content branch the input names, and the rule of both or neither", () => {
  const image = refusal(call("send", {
    receive_id: "ou_1",
    content: { type: "image", source: { type: "key" }, file_name: "a.png" },
  }));
  assert.deepEqual(image.details, [
    { path: "input.content.source.key", message: "required when type is 'key'" },
    { path: "input.content.file_name", message: "not allowed when type is 'image'" },
  ]);
  const both = refusal(call("send", { text: "a", content: { type: "text", text: "a" } }));
  assert.deepEqual(both.details, [
    { path: "input", message: "exactly one of text or content for action 'send'" },
    { path: "input.receive_id", message: "required for action 'send'" },
  ]);
});

Deno.test("details of a root failure list every root problem, then the input's", () => {
  const f = refusal({ action: "read", input: { limit: -1 }, summarize: 1, extra: true });
  assert.equal(f.message, `unsupported feishu argument: extra (accepted: ${ROOT.join(", ")})`);
  assert.deepEqual(f.details, [
    { path: "extra", message: "unknown key" },
    { path: "reasoning", message: "expected a string" },
    { path: "summarize", message: "expected a boolean" },
    { path: "input.chat_id", message: "required for action 'read'" },
    { path: "input.limit", message: "expected an integer >= 0 or null" },
  ]);
  assert.deepEqual(f.accepted_keys, ROOT);
});

Deno.test("accepted_keys lists the action's input keys for an input failure", () => {
  assert.deepEqual(refusal(call("react", { message_id: M })).accepted_keys, [
    "message_id",
    "operation",
    "emoji_type",
    "reaction_id",
  ]);
  assert.deepEqual(refusal(call("manual", { x: 1 })).accepted_keys, []);
});

Deno.test("a root wait_for_previous is accepted with any value and never reaches the action", () => {
  for (const value of [true, false, "yes", null, 3, {}]) {
    const result = validateToolCall(
      call("check", { account: "main" }, { wait_for_previous: value }),
    );
    assert.deepEqual(result, { ok: true, call: { action: "check", input: { account: "main" } } });
  }
});

Deno.test("wait_for_previous is only ignored at the root, in that exact spelling", () => {
  const stray = refusal(call("check", {}, { wait_for_previous: true, waitForPrevious: true }));
  assert.equal(
    stray.message,
    `unsupported feishu argument: waitForPrevious (accepted: ${ROOT.join(", ")})`,
  );
  assert.equal(
    refusal(call("check", { wait_for_previous: true })).message,
    "invalid feishu input: input.wait_for_previous: unknown key for action 'check'",
  );
});

Deno.test("failures name keys but never echo a value the caller gave", () => {
  const secret = "s3cr3t-value-" + "x".repeat(8);
  const cases = [
    call("send", { receive_id: secret, receive_id_type: secret, text: secret, x: secret }),
    call("send", { receive_id: "r", content: { type: secret, text: secret } }),
    call("send", { receive_id: "r", content: { type: "file", source: { type: secret } } }),
    call("react", { message_id: secret, operation: secret }),
    call("read", { chat_id: secret, limit: secret }),
    call("edit", { message_id: secret, content: { type: "card", card: { schema: secret } } }),
    { action: secret, input: secret, reasoning: secret },
    call("check", secret),
    call("check", {}, { summarize: secret }),
  ];
  for (const args of cases) {
    const text = JSON.stringify(refusal(args));
    assert.equal(text.includes("s3cr3t"), false, text);
  }
});
