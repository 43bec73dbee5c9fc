/**
 * Preview texts stored as a sent record's `text`: post and card
 * previews, media placeholders, and the media summary that replaces the source
 * path or key in what the agent and notifications see.
 * @module
 */

import { basename } from "node:path";
import type { JsonObject, MediaSource, MediaSummary, MediaType } from "./types.ts";

function isObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * The plain text of a post: its title, then one line per row with the text of
 * every element; empty lines skipped.
 *
 * @example
 * ```ts
 * import { postPreview } from "./preview.ts";
 * const post = { zh_cn: { title: "T", content: [[{ tag: "text", text: "a" }, { tag: "a", text: "b" }]] } };
 * if (postPreview(post) !== "T\nab") throw new Error();
 * ```
 */
export function postPreview(post: JsonObject): string {
  const doc = "content" in post ? post : Object.values(post).find(isObject);
  if (doc === undefined) return "";
  const lines: string[] = [];
  if (typeof doc.title === "string" && doc.title !== "") lines.push(doc.title);
  const rows = Array.isArray(doc.content)
    ? doc.content
    : Array.isArray(doc.content_v2)
    ? doc.content_v2
    : [];
  for (const row of rows) {
    if (!Array.isArray(row)) continue;
    const line = row.map((el) => {
      if (!isObject(el)) return "";
      if (typeof el.text === "string") return el.text;
      return typeof el.content === "string" ? el.content : "";
    }).join("");
    if (line !== "") lines.push(line);
  }
  return lines.join("\n");
}

/** Keys the card preview walks through; everything else (button `value`s included) is skipped. */
const CARD_PATH_KEYS = new Set(["header", "title", "body", "elements", "columns", "items", "text"]);

/**
 * The readable text of a card: the `text`/`content` strings met on a walk
 * through headers, bodies, elements, columns and items, never through button
 * values (callback payloads stay private). Repeats in a row are dropped.
 *
 * @example
 * ```ts
 * import { cardPreview } from "./preview.ts";
 * const card = {
 *   schema: "2.0",
 *   header: { title: { tag: "plain_text", content: "Deploy?" } },
 *   body: { elements: [{ tag: "button", text: { tag: "plain_text", content: "Yes" }, value: { token: "s3cret" } }] },
 * };
 * if (cardPreview(card) !== "Deploy?\nYes") throw new Error();
 * if (cardPreview({ schema: "2.0", config: {} }) !== "[interactive card]") throw new Error();
 * ```
 */
export function cardPreview(card: JsonObject): string {
  const lines: string[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (!isObject(value)) return;
    for (const [key, v] of Object.entries(value)) {
      if ((key === "text" || key === "content") && typeof v === "string") {
        if (v !== "" && v !== lines.at(-1)) lines.push(v);
      } else if (CARD_PATH_KEYS.has(key)) visit(v);
    }
  };
  visit(card);
  return lines.length === 0 ? "[interactive card]" : lines.join("\n");
}

/** The name a media message shows: `file_name`, else the path's basename; none for a bare key. */
export function mediaFileName(source: MediaSource, fileName?: string): string | undefined {
  if (fileName !== undefined && fileName !== "") return fileName;
  return source.type === "path" ? basename(source.path) : undefined;
}

/**
 * The preview of a media message: the caption when it is not blank, else
 * `[<type>: <file name>]`, or `[<type>]` when there is no name.
 *
 * @example
 * ```ts
 * import { mediaPreview } from "./preview.ts";
 * if (mediaPreview({ type: "image", source: { type: "path", path: "/d/a.png" } }) !== "[image: a.png]") throw new Error();
 * if (mediaPreview({ type: "audio", source: { type: "key", key: "k" } }) !== "[audio]") throw new Error();
 * ```
 */
export function mediaPreview(
  media: { type: MediaType; source: MediaSource; caption?: string; fileName?: string },
): string {
  if (media.caption !== undefined && media.caption.trim() !== "") return media.caption;
  const name = mediaFileName(media.source, media.fileName);
  return name === undefined ? `[${media.type}]` : `[${media.type}: ${name}]`;
}

/**
 * The sent record's `media` for a media message: the type, the file name for
 * paths (or when `file_name` was given) and, for paths, the size when known.
 * Never the path or key.
 *
 * @example
 * ```ts
 * import { mediaSummary } from "./preview.ts";
 * const s = mediaSummary({ type: "image", source: { type: "path", path: "/d/a.png" }, size: 3 });
 * if (JSON.stringify(s) !== '{"type":"image","filename":"a.png","size":3}') throw new Error();
 * ```
 */
export function mediaSummary(
  media: { type: MediaType; source: MediaSource; fileName?: string; size?: number },
): MediaSummary {
  const summary: MediaSummary = { type: media.type };
  const name = mediaFileName(media.source, media.fileName);
  if (name !== undefined) summary.filename = name;
  if (media.source.type === "path" && media.size !== undefined) summary.size = media.size;
  return summary;
}
