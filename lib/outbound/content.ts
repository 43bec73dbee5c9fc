/**
 * Normalisation of outbound `text` / `content` (spec §3.1): the first step of
 * `send`, `reply` and `edit`, before any I/O. Every rejection is an
 * `INVALID_ARGUMENT` `BridgeError` with the spec's message.
 * @module
 */

import { BridgeError } from "../core/mod.ts";
import { type MediaContext, normaliseMedia } from "./_media.ts";
import { cardPreview, postPreview } from "./preview.ts";
import {
  type ContentType,
  EDITABLE_TYPES,
  type JsonObject,
  type NormalisedContent,
} from "./types.ts";

/** The two mutually exclusive inputs of `send`, `reply` and `edit`. */
export interface OutboundInput {
  text?: unknown;
  content?: unknown;
}

/** Options of {@link normaliseOutbound}. */
export interface NormaliseOptions extends MediaContext {
  /** `edit` accepts only text, markdown, post and card (default `send`). */
  mode?: "send" | "edit";
}

function invalid(message: string): BridgeError {
  return new BridgeError("INVALID_ARGUMENT", message);
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function hasExactly(o: JsonObject, keys: readonly string[]): boolean {
  const own = Object.keys(o);
  return own.length === keys.length && keys.every((k) => own.includes(k));
}

const SHARES = {
  share_chat: { field: "chat_id", preview: "[shared chat]" },
  share_user: { field: "user_id", preview: "[shared user]" },
  sticker: { field: "file_key", preview: "[sticker]" },
} as const;

/**
 * Validates `text` or `content` and returns what the record stores and what
 * the materialiser sends. Media paths are checked through `options.fs`
 * against `options.mediaRoots`.
 *
 * @example Legacy text
 * ```ts
 * import { normaliseOutbound } from "./content.ts";
 * const n = await normaliseOutbound({ text: "hi" });
 * if (n.type !== "text" || n.messageType !== "text" || n.previewText !== "hi") throw new Error();
 * ```
 */
export async function normaliseOutbound(
  input: OutboundInput,
  options: NormaliseOptions = {},
): Promise<NormalisedContent> {
  const hasText = input.text !== undefined && input.text !== null;
  const hasContent = input.content !== undefined && input.content !== null;
  if (hasText === hasContent) throw invalid("exactly one of text or content is required");
  if (hasText) {
    if (typeof input.text !== "string" || input.text === "") throw invalid("text is required");
    return {
      type: "text",
      recordContent: { type: "text", text: input.text },
      previewText: input.text,
      messageType: "text",
    };
  }
  const content = input.content;
  if (!isObject(content)) throw invalid("content must be one strict supported outbound value");
  const type = content.type;
  if (typeof type !== "string") throw invalid("content.type must be a supported outbound type");
  if (options.mode === "edit" && !EDITABLE_TYPES.includes(type as ContentType)) {
    throw invalid("edit only supports text, markdown, post, or card content");
  }
  switch (type) {
    case "text":
    case "markdown":
      return inline(type, content);
    case "post":
      return post(content);
    case "card":
      return card(content);
    case "image":
    case "file":
    case "audio":
    case "video":
      return await normaliseMedia(type, content, options);
    case "share_chat":
    case "share_user":
    case "sticker":
      return share(type, content);
    default:
      throw invalid("content must be one strict supported outbound value");
  }
}

function inline(type: "text" | "markdown", content: JsonObject): NormalisedContent {
  if (!hasExactly(content, ["type", type])) {
    throw invalid("content must be one strict text, markdown, or post value");
  }
  const value = content[type];
  if (typeof value !== "string" || value === "") throw invalid(`content.${type} is required`);
  return {
    type,
    recordContent: { type, [type]: value },
    previewText: value,
    messageType: type === "text" ? "text" : "post",
  };
}

function post(content: JsonObject): NormalisedContent {
  if (!hasExactly(content, ["type", "post"])) {
    throw invalid("content must be one strict text, markdown, or post value");
  }
  const value = content.post;
  if (!isObject(value) || Object.keys(value).length === 0) {
    throw invalid("content.post must be a non-empty object");
  }
  const copy = structuredClone(value);
  return {
    type: "post",
    recordContent: { type: "post", post: copy },
    previewText: postPreview(copy),
    messageType: "post",
  };
}

function card(content: JsonObject): NormalisedContent {
  if (!hasExactly(content, ["type", "card"])) {
    throw invalid("content must be one strict card value");
  }
  const value = content.card;
  if (!isObject(value) || value.schema !== "2.0" || Object.keys(value).length < 2) {
    throw invalid("content.card must be a non-empty schema 2.0 card");
  }
  const copy = structuredClone(value);
  return {
    type: "card",
    recordContent: { type: "card", card: copy },
    previewText: cardPreview(copy),
    messageType: "interactive",
  };
}

function share(type: keyof typeof SHARES, content: JsonObject): NormalisedContent {
  const { field, preview } = SHARES[type];
  if (!hasExactly(content, ["type", field])) {
    throw invalid("content must be one strict supported outbound value");
  }
  const value = content[field];
  if (typeof value !== "string" || value === "") throw invalid(`content.${field} is required`);
  const result: NormalisedContent = {
    type,
    recordContent: { type, [field]: value },
    previewText: preview,
    messageType: type,
  };
  if (type === "sticker") result.mediaSummary = { type: "sticker" };
  return result;
}
