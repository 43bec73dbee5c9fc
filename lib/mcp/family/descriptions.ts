/**
 * The prose an agent reads in `tools/list`: the tool description, the
 * root-key descriptions and the per-field hints of the published schema.
 * Written for this implementation; keep it true to what the actions do.
 * @module
 */

/** The `description` of the `feishu` tool. */
export const TOOL_DESCRIPTION: string = [
  "Feishu (Lark) bot client: talk with people and group chats through the bot accounts",
  "this server was set up with. The server and its configuration belong to the operator",
  "who installed it; agents (avatars included) use it and must never try to reconfigure it.",
  "Every call is {action, input, reasoning}; input is the chosen action's own closed object",
  "and any key it does not know is refused before anything is sent or stored.",
  "send delivers a new message (text, markdown, post, schema 2.0 card, image, file, audio,",
  "video, shared chat, shared user or sticker) to receive_id of type receive_id_type, with",
  "exactly one of text or content. check lists recent conversations with their unread",
  "counts. read returns the messages of one chat, newest first, with compound message ids,",
  "and marks the incoming ones it returned as read. reply answers a message by its compound",
  "id and stays in that message's topic unless told otherwise. react adds an emoji reaction",
  "or removes one by its reaction_id. search finds received messages by keyword or regular",
  "expression. delete and edit act on every chunk of a bot message, given any compound id",
  "the message returned; edit takes text, markdown, post or card content, media cannot be",
  "edited. contacts, add_contact and remove_contact manage a local address book of aliases.",
  "accounts lists the configured bot accounts without secrets. manual returns the full",
  "usage manual. Long messages go out in several chunks, each with its own compound id.",
  "Incoming voice messages are transcribed when the operator configured a local",
  "transcriber; otherwise the audio file is attached. The bot reacts on its own: OK when a",
  "message arrives, Typing until you send or reply in that chat, THUMBSUP on the message",
  "you replied to. For long work, a send with placeholder true opens a native schema 2.0",
  "progress card that you edit at each phase change.",
].join(" ");

/** The `description` of the root `action` key: one clause per action. */
export const ACTION_DESCRIPTION: string = [
  "Which action to run; input must be that action's object.",
  "send: receive_id, receive_id_type (open_id by default; chat_id for groups), exactly one",
  "of text or content, optional account, placeholder, idempotency_key.",
  "check: optional account.",
  "read: chat_id, optional limit (10 by default, null for all), account.",
  "reply: message_id, exactly one of text or content, optional reply_in_thread,",
  "idempotency_key.",
  "react: message_id and operation, with emoji_type for add or reaction_id for remove.",
  "search: query, optional chat_id, account.",
  "delete: message_id.",
  "edit: message_id and exactly one of text or content (text, markdown, post or card).",
  "contacts: optional account.",
  "add_contact: open_id, alias, optional name, chat_id, account.",
  "remove_contact: exactly one of alias or open_id, optional account.",
  "accounts: no input.",
  "Progress cards: for work that takes a while, send text, markdown or post with",
  "placeholder true, edit that card only when the work enters a new phase, and send the",
  "final answer as a separate send or reply.",
  "manual: the usage manual (skill 'feishu-mcp-manual'); call it with input {} to get the",
  "whole text: conventions, compound ids, content shapes, errors and what to retry.",
].join(" ");

/** The `description` of the root `input` key. */
export const INPUT_DESCRIPTION: string =
  "The action's own closed input object; it must match the branch named by action, and it is checked again before the action runs.";

/** The `description` of the root `reasoning` key. */
export const REASONING_DESCRIPTION: string =
  "A short note on why you are making this call; it is kept for the record and never sent to Feishu.";

/** The `description` of the root `summarize` key. */
export const SUMMARIZE_DESCRIPTION: string =
  "Post-processing control for the host, false when absent; it is not part of the action's input.";

/** Per-field hints that appear inside the action input schemas. */
export const FIELD_DESCRIPTIONS = {
  account: "Account alias from the config; the first configured account when absent or null.",
  receiveIdType:
    "How receive_id is read: open_id for a user (ou_…), chat_id for a group (oc_…); open_id when absent or null.",
  placeholder:
    "Wrap text, markdown or post content in a native schema 2.0 progress card. Edit it only at phase changes and send the final answer separately.",
  idempotencyKey:
    "Optional key for a safe replay: calling again with the same key never delivers a chunk twice.",
  readLimit: "How many messages to return, newest first: 10 when absent, all when null.",
  deleteMessageId:
    "Any compound id of a bot message; every physical chunk of that message is deleted.",
  editMessageId:
    "Any compound id of a bot message; every physical chunk of that message is edited.",
  replyInThread: "Reply inside the target's topic; follows the target when absent.",
  content: "Structured content; exactly one branch, chosen by its type.",
  editContent: "New content: text, markdown, post or card only.",
} as const;

/**
 * The root descriptions of the `portable` projection. Shorter than the `ltp`
 * ones: Codex strips every description from a tool schema over 5,000 bytes,
 * so this projection stays under it (portable_test.ts). The per-action
 * clauses are left to the tool description, which already says what each
 * action does; each input field says which actions take it.
 */
export const PORTABLE_ROOT_DESCRIPTIONS = {
  action:
    "Which action to run; input holds its fields. manual, with input {}, returns the usage manual (skill 'feishu-mcp-manual').",
  input: "Only the chosen action's fields (each says which actions take it); others are refused.",
  reasoning: "Why you make this call; kept for the record, never sent to Feishu.",
  summarize: "A post-processing flag for the host, false when absent.",
} as const;

/**
 * Short hints of the `portable` projection, per object: they follow the
 * generated "Required for …" clause of a field and win over the field's
 * `ltp` description (kept short: the manual carries the detail).
 */
export const PORTABLE_HINTS = {
  input: {
    account: "Config alias; the first account when absent or null.",
    receive_id: "Who receives it, read as receive_id_type.",
    receive_id_type: "open_id (ou_…) when absent or null; chat_id (oc_…) for a group.",
    limit: "Messages, newest first: 10 when absent, all when null.",
    placeholder: "Open a native progress card; edit it only at phase changes.",
    content: "Its type and that type's fields.",
    message_id: "A compound message id, exactly as given.",
    operation: "add with emoji_type, or remove with reaction_id.",
    idempotency_key: "A repeat with the same key never delivers a chunk twice.",
    query: "Case-insensitive regular expression.",
  },
  content: {
    type: "Content type.",
    post: "A Feishu post document, non-empty.",
    card: "A complete schema 2.0 card.",
    source: "Where the media bytes come from.",
  },
  source: {
    type: "path or key.",
    path: "Absolute local file path.",
    key: "An image_key or file_key this bot can use.",
  },
} as const;
