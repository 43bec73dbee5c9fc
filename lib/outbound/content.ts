/**
 * Normalisation of outbound `text` / `content`: the first step of `send`,
 * `reply` and `edit`, before any I/O.
 *
 * The input is what the tool's zod schemas (`lib/mcp/family`) accepted, so its
 * shape, required keys and types are already settled (and `edit` content is
 * already one of the editable types). What is left here is what the schemas
 * do not say: a legacy `text` must not be empty, and a media source must not
 * be a URL and, for a path, must name a readable file inside `media_roots`.
 * A card must also let every interactive element act when used (a button
 * with no callback, link or form action is refused, naming its path; see
 * `./card_check.ts`). The bridge's own progress card is built later and never
 * passes here. Every rejection is an `INVALID_ARGUMENT` `BridgeError`,
 * except a post or card nested too deeply to walk safely, which is a
 * `FORMAT_ERROR`.
 * @module
 */

import { BridgeError } from "../core/mod.ts";
import type { OutboundContent } from "../mcp/family/mod.ts";
import { assertBodyDepth } from "./_depth.ts";
import { assertCardActions } from "./card_check.ts";
import { type MediaContext, normaliseMedia } from "./_media.ts";
import { cardPreview, postPreview } from "./preview.ts";
import type { JsonObject, NormalisedContent } from "./types.ts";

/**
 * The two mutually exclusive inputs of `send`, `reply` and `edit`, as the
 * tool's input schema accepted them: `content` when present, else `text`.
 */
export interface OutboundInput {
  text?: string;
  content?: OutboundContent;
}

/**
 * Options of {@link normaliseOutbound}. (Edit content needs none of its own:
 * the `edit` input schema already limits it to text, markdown, post and card.)
 */
export type NormaliseOptions = MediaContext;

const SHARES = {
  share_chat: "[shared chat]",
  share_user: "[shared user]",
  sticker: "[sticker]",
} as const;

/**
 * Normalises `text` or `content` into what the record stores and what the
 * materialiser sends. Media paths are checked through `options.fs` against
 * `options.mediaRoots`.
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
  const content = input.content;
  if (content === undefined) {
    // The schema lets a legacy `text` be any string; an empty one sends nothing.
    const text = input.text ?? "";
    if (text === "") throw new BridgeError("INVALID_ARGUMENT", "text is required");
    return inline("text", text);
  }
  switch (content.type) {
    case "text":
      return inline("text", content.text);
    case "markdown":
      return inline("markdown", content.markdown);
    case "post":
      return bodyContent("post", content.post, postPreview, "post");
    case "card":
      return bodyContent("card", content.card, cardPreview, "interactive");
    case "image":
    case "file":
    case "audio":
    case "video":
      return await normaliseMedia(content, options);
    case "share_chat":
      return share("share_chat", { chat_id: content.chat_id });
    case "share_user":
      return share("share_user", { user_id: content.user_id });
    case "sticker":
      return {
        ...share("sticker", { file_key: content.file_key }),
        mediaSummary: { type: "sticker" },
      };
  }
}

function inline(type: "text" | "markdown", value: string): NormalisedContent {
  return {
    type,
    recordContent: { type, [type]: value },
    previewText: value,
    messageType: type === "text" ? "text" : "post",
  };
}

/** A post or card: a copy of the body, so later changes to the input do not leak. */
function bodyContent<T extends JsonObject>(
  type: "post" | "card",
  body: T,
  preview: (copy: T) => string,
  messageType: string,
): NormalisedContent {
  // Before the clone and the preview walk, which recurse.
  assertBodyDepth(type, body);
  if (type === "card") assertCardActions(body, "content.card");
  const copy = structuredClone(body);
  return { type, recordContent: { type, [type]: copy }, previewText: preview(copy), messageType };
}

function share(type: keyof typeof SHARES, field: Record<string, string>): NormalisedContent {
  return {
    type,
    recordContent: { type, ...field },
    previewText: SHARES[type],
    messageType: type,
  };
}
