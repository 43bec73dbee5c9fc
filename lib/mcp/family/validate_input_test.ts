import { call, input, testRefusals, type Want } from "./testdata/refusals.ts";

// Steps 6 and 7: closed inputs, cross-branch keys, exclusive keys, the react pairing.

const SEND = { receive_id: "ou_x" };
const KEY = { type: "key", key: "img_1" };

const rejected: [string, unknown, Want][] = [
  // step 6: closed inputs and cross-branch keys
  [
    "accounts with a receive_id",
    call("accounts", { receive_id: "ou_x" }),
    input("input.receive_id: unknown key for action 'accounts'"),
  ],
  [
    "check with a `__proto__` key from JSON",
    call("check", JSON.parse('{"__proto__":{}}')),
    input("input.__proto__: unknown key for action 'check'"),
  ],
  [
    "check with a `constructor` key",
    call("check", { constructor: "x" }),
    input("input.constructor: unknown key for action 'check'"),
  ],
  [
    "manual with any key",
    call("manual", { topic: "x" }),
    input("input.topic: unknown key for action 'manual'"),
  ],
  [
    "send with another action's message_id",
    call("send", { ...SEND, text: "hi", message_id: "m" }),
    input("input.message_id: unknown key for action 'send'"),
  ],
  [
    "send without receive_id",
    call("send", { text: "hi" }),
    input("input.receive_id: required for action 'send'"),
  ],
  [
    "send with a numeric text",
    call("send", { ...SEND, text: 17 }),
    input("input.text: expected a string"),
  ],
  [
    "send with neither text nor content",
    call("send", SEND),
    input("input: exactly one of text or content for action 'send'"),
  ],
  [
    "send with both text and content",
    call("send", {
      ...SEND,
      text: "hi",
      content: { type: "text", text: "hi" },
    }),
    input("input: exactly one of text or content for action 'send'"),
  ],
  [
    "send with markdown content carrying `text`",
    call("send", {
      ...SEND,
      content: { type: "markdown", text: "# hi" },
    }),
    input(
      "input.content.markdown: required when type is 'markdown'; input.content.text: not allowed when type is 'markdown'",
    ),
  ],
  [
    "send with an empty post",
    call("send", { ...SEND, content: { type: "post", post: {} } }),
    input("input.content.post: expected a non-empty object"),
  ],
  [
    "send with an unknown content type",
    call("send", {
      ...SEND,
      content: { type: "gif", key: "k" },
    }),
    input(
      "input.content.type: expected one of text, markdown, post, card, image, file, audio, video, share_chat, share_user, sticker for action 'send'",
    ),
  ],
  [
    "send with empty content text",
    call("send", { ...SEND, content: { type: "text", text: "" } }),
    input("input.content.text: expected a non-empty string"),
  ],
  [
    "send with a card lacking schema 2.0",
    call("send", {
      ...SEND,
      content: { type: "card", card: { schema: "1.0", body: {} } },
    }),
    input("input.content.card: expected an object with schema '2.0' and at least one more key"),
  ],
  [
    "send with a card holding only its schema",
    call("send", {
      ...SEND,
      content: { type: "card", card: { schema: "2.0" } },
    }),
    input("input.content.card: expected an object with schema '2.0' and at least one more key"),
  ],
  [
    "send with a media source holding both path and key",
    call("send", {
      ...SEND,
      content: { type: "image", source: { type: "path", path: "/a", key: "k" } },
    }),
    input("input.content.source.key: not allowed when type is 'path'"),
  ],
  [
    "send with a path source naming a key",
    call("send", {
      ...SEND,
      content: { type: "image", source: { type: "path", key: "k" } },
    }),
    input(
      "input.content.source.path: required when type is 'path'; input.content.source.key: not allowed when type is 'path'",
    ),
  ],
  [
    "send with a bare string source",
    call("send", {
      ...SEND,
      content: { type: "file", source: "/tmp/a.pdf" },
    }),
    input("input.content.source: expected an object"),
  ],
  [
    "send with an empty file_name",
    call("send", {
      ...SEND,
      content: { type: "file", source: KEY, file_name: "" },
    }),
    input("input.content.file_name: expected a non-empty string"),
  ],
  [
    "send with a caption on audio",
    call("send", {
      ...SEND,
      content: { type: "audio", source: KEY, caption: "c" },
    }),
    input("input.content.caption: not allowed when type is 'audio'"),
  ],
  [
    "send with an unknown receive_id_type",
    call("send", {
      ...SEND,
      receive_id_type: "phone",
      text: "x",
    }),
    input(
      "input.receive_id_type: expected one of open_id, user_id, email, chat_id, union_id or null",
    ),
  ],
  [
    'send with placeholder "yes"',
    call("send", { ...SEND, text: "x", placeholder: "yes" }),
    input("input.placeholder: expected a boolean or null"),
  ],
  [
    "send with an empty idempotency_key",
    call("send", {
      ...SEND,
      text: "x",
      idempotency_key: "",
    }),
    input("input.idempotency_key: expected a non-empty string"),
  ],
  [
    "send with a null idempotency_key",
    call("send", {
      ...SEND,
      text: "x",
      idempotency_key: null,
    }),
    input("input.idempotency_key: expected a non-empty string"),
  ],
  [
    "send with `reasoning` inside input",
    call("send", { ...SEND, text: "x", reasoning: "r" }),
    input("input.reasoning: unknown key for action 'send'"),
  ],
  [
    "check with `summarize` inside input",
    call("check", { summarize: true }),
    input("input.summarize: unknown key for action 'check'"),
  ],
  [
    "check with a numeric account",
    call("check", { account: 5 }),
    input("input.account: expected a string or null"),
  ],
  [
    'reply with reply_in_thread "yes"',
    call("reply", {
      message_id: "a:b:c",
      text: "x",
      reply_in_thread: "yes",
    }),
    input("input.reply_in_thread: expected a boolean"),
  ],
  [
    "reply with a null reply_in_thread",
    call("reply", {
      message_id: "a:b:c",
      text: "x",
      reply_in_thread: null,
    }),
    input("input.reply_in_thread: expected a boolean"),
  ],
  [
    "reply with an account",
    call("reply", { message_id: "a:b:c", text: "x", account: "a" }),
    input("input.account: unknown key for action 'reply'"),
  ],
  [
    "edit with image content",
    call("edit", {
      message_id: "a:b:c",
      content: { type: "image", source: KEY },
    }),
    input("input.content.type: expected one of text, markdown, post, card for action 'edit'"),
  ],
  [
    "read with a negative limit",
    call("read", { chat_id: "oc_1", limit: -1 }),
    input("input.limit: expected an integer >= 0 or null"),
  ],
  [
    "read with a fractional limit",
    call("read", { chat_id: "oc_1", limit: 1.5 }),
    input("input.limit: expected an integer >= 0 or null"),
  ],
  [
    "read with a string limit",
    call("read", { chat_id: "oc_1", limit: "10" }),
    input("input.limit: expected an integer >= 0 or null"),
  ],
  [
    "read with a boolean limit",
    call("read", { chat_id: "oc_1", limit: true }),
    input("input.limit: expected an integer >= 0 or null"),
  ],
  [
    "read without chat_id",
    call("read", { limit: 5 }),
    input("input.chat_id: required for action 'read'"),
  ],
  [
    "search without query",
    call("search", { chat_id: "oc_1" }),
    input("input.query: required for action 'search'"),
  ],
  [
    "delete with text",
    call("delete", { message_id: "a:b:c", text: "x" }),
    input("input.text: unknown key for action 'delete'"),
  ],
  [
    "add_contact without alias",
    call("add_contact", { open_id: "ou_1" }),
    input("input.alias: required for action 'add_contact'"),
  ],
  [
    "remove_contact with nothing",
    call("remove_contact", {}),
    input("input: exactly one of alias or open_id for action 'remove_contact'"),
  ],
  [
    "remove_contact with both alias and open_id",
    call("remove_contact", {
      alias: "bob",
      open_id: "ou_1",
    }),
    input("input: exactly one of alias or open_id for action 'remove_contact'"),
  ],
  // step 7: the react pairing
  [
    "react add without emoji_type",
    call("react", { message_id: "m", operation: "add" }),
    input("input.emoji_type: required when operation is 'add'"),
  ],
  [
    "react remove without reaction_id",
    call("react", {
      message_id: "m",
      operation: "remove",
    }),
    input("input.reaction_id: required when operation is 'remove'"),
  ],
  [
    "react add with a reaction_id",
    call("react", {
      message_id: "m",
      operation: "add",
      emoji_type: "SMILE",
      reaction_id: "r",
    }),
    input("input.reaction_id: not allowed when operation is 'add'"),
  ],
  [
    "react add with only a reaction_id",
    call("react", {
      message_id: "m",
      operation: "add",
      reaction_id: "r",
    }),
    input(
      "input.emoji_type: required when operation is 'add'; input.reaction_id: not allowed when operation is 'add'",
    ),
  ],
  [
    "react remove with an emoji_type",
    call("react", {
      message_id: "m",
      operation: "remove",
      reaction_id: "r",
      emoji_type: "SMILE",
    }),
    input("input.emoji_type: not allowed when operation is 'remove'"),
  ],
  [
    "react remove with only an emoji_type",
    call("react", {
      message_id: "m",
      operation: "remove",
      emoji_type: "SMILE",
    }),
    input(
      "input.reaction_id: required when operation is 'remove'; input.emoji_type: not allowed when operation is 'remove'",
    ),
  ],
  [
    "react add with an empty emoji_type",
    call("react", {
      message_id: "m",
      operation: "add",
      emoji_type: "",
    }),
    input("input.emoji_type: expected a non-empty string"),
  ],
  [
    "react with an empty message_id",
    call("react", {
      message_id: "",
      operation: "add",
      emoji_type: "SMILE",
    }),
    input("input.message_id: expected a non-empty string"),
  ],
  [
    "react with an unknown operation",
    call("react", {
      message_id: "m",
      operation: "toggle",
      emoji_type: "SMILE",
    }),
    input("input.operation: expected one of add, remove for action 'react'"),
  ],
];

testRefusals(rejected);
