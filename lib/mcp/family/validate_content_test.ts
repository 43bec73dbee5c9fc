import assert from "node:assert/strict";
import { validateToolCall } from "./validate.ts";

// Outbound content the closed content branches refuse, so that outbound
// normalisation never sees it (validate_test.ts holds the other inputs).

const SEND = { receive_id: "ou_x" };
const KEY = { type: "key", key: "img_1" };

/** A family call with `reasoning` filled in. */
function call(action: string, input: unknown) {
  return { action, input, reasoning: "why" };
}

const rejected: [string, unknown][] = [
  ["send with string content", call("send", { ...SEND, content: "hi" })],
  ["send with a numeric content type", call("send", { ...SEND, content: { type: 5 } })],
  [
    "send with text content carrying an extra key",
    call("send", { ...SEND, content: { type: "text", text: "a", bold: true } }),
  ],
  [
    "send with empty markdown",
    call("send", { ...SEND, content: { type: "markdown", markdown: "" } }),
  ],
  [
    "send with a post that is an array",
    call("send", { ...SEND, content: { type: "post", post: [1] } }),
  ],
  [
    "send with card content carrying an extra key",
    call("send", { ...SEND, content: { type: "card", card: { schema: "2.0", body: {} }, x: 1 } }),
  ],
  [
    "send with an image without a source",
    call("send", { ...SEND, content: { type: "image" } }),
  ],
  [
    "send with an image carrying file_name",
    call("send", { ...SEND, content: { type: "image", source: KEY, file_name: "a.png" } }),
  ],
  [
    "send with a path source without its path",
    call("send", { ...SEND, content: { type: "image", source: { type: "path" } } }),
  ],
  [
    "send with a key source carrying an extra key",
    call("send", { ...SEND, content: { type: "file", source: { ...KEY, x: 1 } } }),
  ],
  [
    "send with a url source type",
    call("send", { ...SEND, content: { type: "file", source: { type: "url", url: "https://x" } } }),
  ],
  [
    "send with an empty path",
    call("send", { ...SEND, content: { type: "image", source: { type: "path", path: "" } } }),
  ],
  [
    "send with an empty key",
    call("send", { ...SEND, content: { type: "image", source: { type: "key", key: "" } } }),
  ],
  [
    "send with a numeric caption",
    call("send", { ...SEND, content: { type: "image", source: KEY, caption: 3 } }),
  ],
  [
    "send with an empty share_chat chat_id",
    call("send", { ...SEND, content: { type: "share_chat", chat_id: "" } }),
  ],
  [
    "send with share_user content carrying an extra key",
    call("send", { ...SEND, content: { type: "share_user", user_id: "ou_1", x: 1 } }),
  ],
  [
    "send with an empty sticker file_key",
    call("send", { ...SEND, content: { type: "sticker", file_key: "" } }),
  ],
  [
    "edit with an unknown content type",
    call("edit", { message_id: "a:b:c", content: { type: "gif" } }),
  ],
];

for (const [name, args] of rejected) {
  Deno.test(`validateToolCall() refuses ${name} with INVALID_ARGUMENT "invalid feishu input"`, () => {
    const result = validateToolCall(args);
    assert.equal(result.ok, false);
    if (result.ok) return;
    assert.equal(result.failure.error_code, "INVALID_ARGUMENT");
    assert.equal(result.failure.message, "invalid feishu input");
  });
}
