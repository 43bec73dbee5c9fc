import assert from "node:assert/strict";
import { validateToolCall } from "./validate.ts";

const SEND = { receive_id: "ou_x" };
const PATH = { type: "path", path: "/tmp/a.png" };
const KEY = { type: "key", key: "img_1" };

const accepted: [string, string, Record<string, unknown>][] = [
  ["send with text", "send", { ...SEND, text: "hi" }],
  ["send with text to a chat_id", "send", { ...SEND, text: "hi", receive_id_type: "chat_id" }],
  ["send with text content", "send", { ...SEND, content: { type: "text", text: "hi" } }],
  ["send with markdown content", "send", {
    ...SEND,
    content: { type: "markdown", markdown: "# h" },
  }],
  ["send with post content", "send", {
    ...SEND,
    content: { type: "post", post: { zh_cn: { title: "hello" } } },
  }],
  ["send with a schema 2.0 card", "send", {
    ...SEND,
    content: { type: "card", card: { schema: "2.0", body: { elements: [] } } },
  }],
  ["send with an image path and caption", "send", {
    ...SEND,
    content: { type: "image", source: PATH, caption: "**c**" },
  }],
  ["send with a file key and file_name", "send", {
    ...SEND,
    content: { type: "file", source: KEY, file_name: "report.pdf" },
  }],
  ["send with an audio key", "send", { ...SEND, content: { type: "audio", source: KEY } }],
  ["send with a video key and empty caption", "send", {
    ...SEND,
    content: { type: "video", source: KEY, caption: "" },
  }],
  ["send with share_chat", "send", { ...SEND, content: { type: "share_chat", chat_id: "oc_s" } }],
  ["send with share_user", "send", { ...SEND, content: { type: "share_user", user_id: "ou_s" } }],
  ["send with a sticker", "send", { ...SEND, content: { type: "sticker", file_key: "st_1" } }],
  ["send with null account, type and placeholder", "send", {
    ...SEND,
    text: "",
    account: null,
    receive_id_type: null,
    placeholder: null,
  }],
  ["send with a placeholder and an idempotency_key", "send", {
    ...SEND,
    text: "working",
    placeholder: true,
    idempotency_key: "k1",
  }],
  ["send with an empty receive_id (the action checks it)", "send", { receive_id: "", text: "x" }],
  ["check with {}", "check", {}],
  ["check with a null account", "check", { account: null }],
  ["read with a null limit", "read", { chat_id: "oc_1", limit: null }],
  ["read with a zero limit", "read", { chat_id: "events", limit: 0 }],
  ["read with an account", "read", { chat_id: "oc_1", limit: 5, account: "main" }],
  ["reply with markdown in a thread", "reply", {
    message_id: "main:oc_1:om_1",
    content: { type: "markdown", markdown: "**ok**" },
    reply_in_thread: true,
  }],
  ["reply with an image key", "reply", {
    message_id: "main:oc_1:om_1",
    content: { type: "image", source: { type: "key", key: "img_reply" } },
    idempotency_key: "r1",
  }],
  ["react add", "react", { message_id: "main:oc_1:om_1", operation: "add", emoji_type: "SMILE" }],
  ["react remove", "react", {
    message_id: "main:oc_1:om_1",
    operation: "remove",
    reaction_id: "r",
  }],
  ["search with a null chat_id", "search", { query: "hi", chat_id: null }],
  ["delete", "delete", { message_id: "main:oc_1:om_1" }],
  ["edit with text", "edit", { message_id: "main:oc_1:om_1", text: "new" }],
  ["edit with a card", "edit", {
    message_id: "main:oc_1:om_1",
    content: { type: "card", card: { schema: "2.0", header: {} } },
  }],
  ["contacts with {}", "contacts", {}],
  ["add_contact with null name and chat_id", "add_contact", {
    open_id: "ou_1",
    alias: "bob",
    name: null,
    chat_id: null,
  }],
  ["remove_contact with only alias", "remove_contact", { alias: "bob" }],
  ["remove_contact with only open_id", "remove_contact", { open_id: "ou_1", account: "main" }],
  ["accounts with {}", "accounts", {}],
  ["manual with {}", "manual", {}],
];

for (const [name, action, input] of accepted) {
  Deno.test(`validateToolCall() accepts ${name} and passes the input on unchanged`, () => {
    const result = validateToolCall({ action, input, reasoning: "why" });
    assert.deepEqual(result, { ok: true, call: { action, input } });
  });
}

Deno.test("validateToolCall() keeps reasoning and summarize out of the call", () => {
  const result = validateToolCall({
    action: "check",
    input: {},
    reasoning: "probe",
    summarize: true,
  });
  assert.deepEqual(result, { ok: true, call: { action: "check", input: {} } });
});

Deno.test("validateToolCall() accepts an empty reasoning string", () => {
  const result = validateToolCall({ action: "accounts", input: {}, reasoning: "" });
  assert.equal(result.ok, true);
});

Deno.test("validateToolCall() keeps post and card bodies as the given references", () => {
  const post = { zh_cn: { title: "t", content: [[{ tag: "text", text: "x" }]] } };
  const card = { schema: "2.0", body: { elements: [{ tag: "markdown", content: "x" }] } };
  for (const content of [{ type: "post", post }, { type: "card", card }]) {
    const result = validateToolCall({
      action: "send",
      input: { ...SEND, content },
      reasoning: "r",
    });
    assert.ok(result.ok);
    const got = result.call.input as { content: { post?: unknown; card?: unknown } };
    assert.equal(got.content.post ?? got.content.card, content.type === "post" ? post : card);
  }
});
