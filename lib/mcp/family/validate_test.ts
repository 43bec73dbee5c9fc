import assert from "node:assert/strict";
import { validateToolCall } from "./validate.ts";

const UNSUPPORTED = ["INVALID_ARGUMENT", "unsupported feishu argument"] as const;
const ACTION = ["ACTION_REQUIRED", "invalid feishu action"] as const;
const NOT_OBJECT = ["INVALID_ARGUMENT", "input must be an object"] as const;
const REASONING = ["INVALID_ARGUMENT", "reasoning is required"] as const;
const SUMMARIZE = ["INVALID_ARGUMENT", "summarize must be a boolean"] as const;
const INPUT = ["INVALID_ARGUMENT", "invalid feishu input"] as const;

type Want = readonly [string, string];

/** A family call with `reasoning` filled in. */
function call(action: unknown, input: unknown, extra: Record<string, unknown> = {}) {
  return { action, input, reasoning: "why", ...extra };
}

const SEND = { receive_id: "ou_x" };
const KEY = { type: "key", key: "img_1" };

const rejected: [string, unknown, Want][] = [
  // step 1 (an unknown root key), and its precedence over every later step
  ["a root `_reasoning` key", call("check", {}, { _reasoning: "x" }), UNSUPPORTED],
  ["an unknown root key", call("check", {}, { unknown: 1 }), UNSUPPORTED],
  ["an unknown root key before a bad action, input and reasoning", {
    action: "nope",
    input: 5,
    reasoning: 7,
    bogus: 1,
  }, UNSUPPORTED],
  [
    "a root `__proto__` key from JSON",
    JSON.parse(
      '{"action":"check","input":{},"reasoning":"r","__proto__":{}}',
    ),
    UNSUPPORTED,
  ],
  ["the flat legacy shape", { action: "read", chat_id: "oc_1" }, UNSUPPORTED],
  // step 2
  ["an empty arguments object", {}, ACTION],
  ["missing arguments", undefined, ACTION],
  ["null arguments", null, ACTION],
  ["an array as arguments", ["send"], ACTION],
  ["a string as arguments", "send", ACTION],
  ["an unknown action", call("post_message", {}), ACTION],
  ["an action in the wrong case", call("Send", SEND), ACTION],
  ["an empty action", call("", {}), ACTION],
  ["a numeric action", call(7, {}), ACTION],
  ["a missing action", { input: {}, reasoning: "r" }, ACTION],
  ["a bad action before a missing input", { action: "x", reasoning: "r" }, ACTION],
  // step 3
  ["a missing input", { action: "check", reasoning: "r" }, NOT_OBJECT],
  ["a null input", call("check", null), NOT_OBJECT],
  ["an array input", call("check", []), NOT_OBJECT],
  ["a string input", call("check", "{}"), NOT_OBJECT],
  ["a bad input before a missing reasoning", { action: "check", input: 1 }, NOT_OBJECT],
  // step 4
  ["a missing reasoning", { action: "check", input: {} }, REASONING],
  ["a numeric reasoning", call("check", {}, { reasoning: 7 }), REASONING],
  ["a null reasoning", call("check", {}, { reasoning: null }), REASONING],
  [
    "a bad reasoning before a bad summarize",
    call("check", {}, {
      reasoning: 7,
      summarize: "yes",
    }),
    REASONING,
  ],
  // step 5
  ['summarize "yes"', call("check", {}, { summarize: "yes" }), SUMMARIZE],
  ["a null summarize", call("check", {}, { summarize: null }), SUMMARIZE],
  ["a numeric summarize", call("check", {}, { summarize: 1 }), SUMMARIZE],
  ["a bad summarize before a bad input", call("send", {}, { summarize: "yes" }), SUMMARIZE],
  // step 6: closed inputs and cross-branch keys
  ["accounts with a receive_id", call("accounts", { receive_id: "ou_x" }), INPUT],
  ["check with a `__proto__` key from JSON", call("check", JSON.parse('{"__proto__":{}}')), INPUT],
  ["check with a `constructor` key", call("check", { constructor: "x" }), INPUT],
  ["manual with any key", call("manual", { topic: "x" }), INPUT],
  [
    "send with another action's message_id",
    call("send", { ...SEND, text: "hi", message_id: "m" }),
    INPUT,
  ],
  ["send without receive_id", call("send", { text: "hi" }), INPUT],
  ["send with a numeric text", call("send", { ...SEND, text: 17 }), INPUT],
  ["send with neither text nor content", call("send", SEND), INPUT],
  [
    "send with both text and content",
    call("send", {
      ...SEND,
      text: "hi",
      content: { type: "text", text: "hi" },
    }),
    INPUT,
  ],
  [
    "send with markdown content carrying `text`",
    call("send", {
      ...SEND,
      content: { type: "markdown", text: "# hi" },
    }),
    INPUT,
  ],
  [
    "send with an empty post",
    call("send", { ...SEND, content: { type: "post", post: {} } }),
    INPUT,
  ],
  [
    "send with an unknown content type",
    call("send", {
      ...SEND,
      content: { type: "gif", key: "k" },
    }),
    INPUT,
  ],
  [
    "send with empty content text",
    call("send", { ...SEND, content: { type: "text", text: "" } }),
    INPUT,
  ],
  [
    "send with a card lacking schema 2.0",
    call("send", {
      ...SEND,
      content: { type: "card", card: { schema: "1.0", body: {} } },
    }),
    INPUT,
  ],
  [
    "send with a card holding only its schema",
    call("send", {
      ...SEND,
      content: { type: "card", card: { schema: "2.0" } },
    }),
    INPUT,
  ],
  [
    "send with a media source holding both path and key",
    call("send", {
      ...SEND,
      content: { type: "image", source: { type: "path", path: "/a", key: "k" } },
    }),
    INPUT,
  ],
  [
    "send with a path source naming a key",
    call("send", {
      ...SEND,
      content: { type: "image", source: { type: "path", key: "k" } },
    }),
    INPUT,
  ],
  [
    "send with a bare string source",
    call("send", {
      ...SEND,
      content: { type: "file", source: "/tmp/a.pdf" },
    }),
    INPUT,
  ],
  [
    "send with an empty file_name",
    call("send", {
      ...SEND,
      content: { type: "file", source: KEY, file_name: "" },
    }),
    INPUT,
  ],
  [
    "send with a caption on audio",
    call("send", {
      ...SEND,
      content: { type: "audio", source: KEY, caption: "c" },
    }),
    INPUT,
  ],
  [
    "send with an unknown receive_id_type",
    call("send", {
      ...SEND,
      receive_id_type: "phone",
      text: "x",
    }),
    INPUT,
  ],
  ['send with placeholder "yes"', call("send", { ...SEND, text: "x", placeholder: "yes" }), INPUT],
  [
    "send with an empty idempotency_key",
    call("send", {
      ...SEND,
      text: "x",
      idempotency_key: "",
    }),
    INPUT,
  ],
  [
    "send with a null idempotency_key",
    call("send", {
      ...SEND,
      text: "x",
      idempotency_key: null,
    }),
    INPUT,
  ],
  [
    "send with `reasoning` inside input",
    call("send", { ...SEND, text: "x", reasoning: "r" }),
    INPUT,
  ],
  ["check with `summarize` inside input", call("check", { summarize: true }), INPUT],
  ["check with a numeric account", call("check", { account: 5 }), INPUT],
  [
    'reply with reply_in_thread "yes"',
    call("reply", {
      message_id: "a:b:c",
      text: "x",
      reply_in_thread: "yes",
    }),
    INPUT,
  ],
  [
    "reply with a null reply_in_thread",
    call("reply", {
      message_id: "a:b:c",
      text: "x",
      reply_in_thread: null,
    }),
    INPUT,
  ],
  ["reply with an account", call("reply", { message_id: "a:b:c", text: "x", account: "a" }), INPUT],
  [
    "edit with image content",
    call("edit", {
      message_id: "a:b:c",
      content: { type: "image", source: KEY },
    }),
    INPUT,
  ],
  ["read with a negative limit", call("read", { chat_id: "oc_1", limit: -1 }), INPUT],
  ["read with a fractional limit", call("read", { chat_id: "oc_1", limit: 1.5 }), INPUT],
  ["read with a string limit", call("read", { chat_id: "oc_1", limit: "10" }), INPUT],
  ["read with a boolean limit", call("read", { chat_id: "oc_1", limit: true }), INPUT],
  ["read without chat_id", call("read", { limit: 5 }), INPUT],
  ["search without query", call("search", { chat_id: "oc_1" }), INPUT],
  ["delete with text", call("delete", { message_id: "a:b:c", text: "x" }), INPUT],
  ["add_contact without alias", call("add_contact", { open_id: "ou_1" }), INPUT],
  ["remove_contact with nothing", call("remove_contact", {}), INPUT],
  [
    "remove_contact with both alias and open_id",
    call("remove_contact", {
      alias: "bob",
      open_id: "ou_1",
    }),
    INPUT,
  ],
  // step 7: the react pairing
  ["react add without emoji_type", call("react", { message_id: "m", operation: "add" }), INPUT],
  [
    "react remove without reaction_id",
    call("react", {
      message_id: "m",
      operation: "remove",
    }),
    INPUT,
  ],
  [
    "react add with a reaction_id",
    call("react", {
      message_id: "m",
      operation: "add",
      emoji_type: "SMILE",
      reaction_id: "r",
    }),
    INPUT,
  ],
  [
    "react add with only a reaction_id",
    call("react", {
      message_id: "m",
      operation: "add",
      reaction_id: "r",
    }),
    INPUT,
  ],
  [
    "react remove with an emoji_type",
    call("react", {
      message_id: "m",
      operation: "remove",
      reaction_id: "r",
      emoji_type: "SMILE",
    }),
    INPUT,
  ],
  [
    "react remove with only an emoji_type",
    call("react", {
      message_id: "m",
      operation: "remove",
      emoji_type: "SMILE",
    }),
    INPUT,
  ],
  [
    "react add with an empty emoji_type",
    call("react", {
      message_id: "m",
      operation: "add",
      emoji_type: "",
    }),
    INPUT,
  ],
  [
    "react with an empty message_id",
    call("react", {
      message_id: "",
      operation: "add",
      emoji_type: "SMILE",
    }),
    INPUT,
  ],
  [
    "react with an unknown operation",
    call("react", {
      message_id: "m",
      operation: "toggle",
      emoji_type: "SMILE",
    }),
    INPUT,
  ],
];

for (const [name, args, [code, message]] of rejected) {
  Deno.test(`validateToolCall() refuses ${name} with ${code} "${message}"`, () => {
    const result = validateToolCall(args);
    assert.equal(result.ok, false);
    if (result.ok) return;
    assert.deepEqual(result.failure, {
      status: "failed",
      error: message,
      message,
      error_code: code,
      retryable: false,
      retry_after_seconds: null,
    });
  });
}
