import {
  ACTION,
  call,
  NOT_OBJECT,
  REASONING,
  SUMMARIZE,
  testRefusals,
  unsupported,
  type Want,
} from "./testdata/refusals.ts";

// Steps 1 to 5 and their precedence (validate_input_test.ts holds steps 6 and 7).

const SEND = { receive_id: "ou_x" };

const rejected: [string, unknown, Want][] = [
  // step 1 (an unknown root key), and its precedence over every later step
  ["a root `_reasoning` key", call("check", {}, { _reasoning: "x" }), unsupported("_reasoning")],
  ["an unknown root key", call("check", {}, { unknown: 1 }), unsupported("unknown")],
  ["an unknown root key before a bad action, input and reasoning", {
    action: "nope",
    input: 5,
    reasoning: 7,
    bogus: 1,
  }, unsupported("bogus")],
  [
    "a root `__proto__` key from JSON",
    JSON.parse(
      '{"action":"check","input":{},"reasoning":"r","__proto__":{}}',
    ),
    unsupported("__proto__"),
  ],
  ["the flat legacy shape", { action: "read", chat_id: "oc_1" }, unsupported("chat_id")],
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
];

testRefusals(rejected);
