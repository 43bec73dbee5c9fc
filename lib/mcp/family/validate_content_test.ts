import { call, input, testRefusals, type Want } from "./testdata/refusals.ts";

// Outbound content the closed content branches refuse, so that outbound
// normalisation never sees it (validate_input_test.ts holds the other inputs).

const SEND = { receive_id: "ou_x" };
const KEY = { type: "key", key: "img_1" };

const rejected: [string, unknown, Want][] = [
  [
    "send with string content",
    call("send", { ...SEND, content: "hi" }),
    input("input.content: expected an object"),
  ],
  [
    "send with a numeric content type",
    call("send", { ...SEND, content: { type: 5 } }),
    input(
      "input.content.type: expected one of text, markdown, post, card, image, file, audio, video, share_chat, share_user, sticker for action 'send'",
    ),
  ],
  [
    "send with text content carrying an extra key",
    call("send", { ...SEND, content: { type: "text", text: "a", bold: true } }),
    input("input.content.bold: unknown key for content type 'text'"),
  ],
  [
    "send with empty markdown",
    call("send", { ...SEND, content: { type: "markdown", markdown: "" } }),
    input("input.content.markdown: expected a non-empty string"),
  ],
  [
    "send with a post that is an array",
    call("send", { ...SEND, content: { type: "post", post: [1] } }),
    input("input.content.post: expected a non-empty object"),
  ],
  [
    "send with card content carrying an extra key",
    call("send", { ...SEND, content: { type: "card", card: { schema: "2.0", body: {} }, x: 1 } }),
    input("input.content.x: unknown key for content type 'card'"),
  ],
  [
    "send with an image without a source",
    call("send", { ...SEND, content: { type: "image" } }),
    input("input.content.source: required when type is 'image'"),
  ],
  [
    "send with an image carrying file_name",
    call("send", { ...SEND, content: { type: "image", source: KEY, file_name: "a.png" } }),
    input("input.content.file_name: not allowed when type is 'image'"),
  ],
  [
    "send with a path source without its path",
    call("send", { ...SEND, content: { type: "image", source: { type: "path" } } }),
    input("input.content.source.path: required when type is 'path'"),
  ],
  [
    "send with a key source carrying an extra key",
    call("send", { ...SEND, content: { type: "file", source: { ...KEY, x: 1 } } }),
    input("input.content.source.x: unknown key for source type 'key'"),
  ],
  [
    "send with a url source type",
    call("send", { ...SEND, content: { type: "file", source: { type: "url", url: "https://x" } } }),
    input("input.content.source.type: expected one of path, key for action 'send'"),
  ],
  [
    "send with an empty path",
    call("send", { ...SEND, content: { type: "image", source: { type: "path", path: "" } } }),
    input("input.content.source.path: expected a non-empty string"),
  ],
  [
    "send with an empty key",
    call("send", { ...SEND, content: { type: "image", source: { type: "key", key: "" } } }),
    input("input.content.source.key: expected a non-empty string"),
  ],
  [
    "send with a numeric caption",
    call("send", { ...SEND, content: { type: "image", source: KEY, caption: 3 } }),
    input("input.content.caption: expected a string"),
  ],
  [
    "send with an empty share_chat chat_id",
    call("send", { ...SEND, content: { type: "share_chat", chat_id: "" } }),
    input("input.content.chat_id: expected a non-empty string"),
  ],
  [
    "send with share_user content carrying an extra key",
    call("send", { ...SEND, content: { type: "share_user", user_id: "ou_1", x: 1 } }),
    input("input.content.x: unknown key for content type 'share_user'"),
  ],
  [
    "send with an empty sticker file_key",
    call("send", { ...SEND, content: { type: "sticker", file_key: "" } }),
    input("input.content.file_key: expected a non-empty string"),
  ],
  [
    "edit with an unknown content type",
    call("edit", { message_id: "a:b:c", content: { type: "gif" } }),
    input("input.content.type: expected one of text, markdown, post, card for action 'edit'"),
  ],
];

testRefusals(rejected);
