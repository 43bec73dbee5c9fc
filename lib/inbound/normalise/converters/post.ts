/**
 * `post` (rich text): a markdown-ish flat rendering, a plain rendering for
 * `content.text`, and the raw locale AST kept as `content.post`. Images,
 * videos and attachment-zone files become resources.
 * @module
 */

import { asArray, asObject, asText, type JsonObject } from "../_json.ts";
import { attr, optionalAttr } from "../_format.ts";
import { localesOf } from "../_visible.ts";
import type { ResourceRef } from "../../attachments/mod.ts";
import type { Conversion, ConvertContext } from "../types.ts";

const EMPTY_POST = "[rich text message]";
/** Wrapping layers (`post`, a locale, …) unwrapped at most. */
const MAX_WRAPPERS = 8;

/**
 * Converts a post. Inbound posts carry `{title, content}` directly; others
 * wrap it in `post` and locale layers, which are unwrapped to any depth up
 * to {@link MAX_WRAPPERS}.
 *
 * @example
 * ```ts
 * import { convertPost } from "./post.ts";
 * import assert from "node:assert/strict";
 * const ctx = { mention: (id: string) => `@${id}` };
 * const c = convertPost({ title: "T", content: [[{ tag: "text", text: "hi", style: ["bold"] }]] }, ctx);
 * assert.equal(c.text, "**T**\n\n**hi**");
 * assert.equal(c.content.kind === "post" && c.content.text, "T\nhi");
 * ```
 */
export function convertPost(content: unknown, ctx: ConvertContext): Conversion {
  const root = asObject(content);
  if (!root) {
    return {
      content: { kind: "post", title: "", text: "", post: null },
      text: EMPTY_POST,
      resources: [],
    };
  }
  const path = unwrap(root);
  const last = path.at(-1);
  const body = last && isBody(last) ? last : {};
  const title = asText(body.title) ?? "";
  const v2 = asArray(body.content_v2);
  const paragraphs = v2.length > 0 ? v2 : asArray(body.content);
  const resources: ResourceRef[] = [];
  const flat: string[] = title ? [`**${title}**`, ""] : [];
  const plain: string[] = title ? [title] : [];
  for (const paragraph of paragraphs) {
    const els = asArray(paragraph).map(asObject).filter((e): e is JsonObject => !!e);
    flat.push(els.map((e) => renderFlat(e, ctx, resources)).join(""));
    plain.push(els.map((e) => renderPlain(e, ctx)).join(""));
  }
  const files = path.map((layer) => asArray(layer.files)).findLast((f) => f.length > 0) ?? [];
  for (const f of files) flat.push(...renderZoneFile(asObject(f), resources));
  const text = flat.join("\n").trim();
  return {
    content: { kind: "post", title, text: plain.join("\n").trim(), post: root },
    text: text || EMPTY_POST,
    resources,
  };
}

/**
 * The layers from the root down to the post body (`{title, content}`), the
 * body last when one is found within {@link MAX_WRAPPERS} layers. Each layer
 * steps into `post`, else a locale (zh_cn, en_us, ja_jp, then any), else an
 * object `content`, else the first object member.
 */
function unwrap(root: JsonObject): JsonObject[] {
  const path: JsonObject[] = [];
  let layer: JsonObject | undefined = root;
  for (let depth = 0; layer && depth <= MAX_WRAPPERS; depth++) {
    path.push(layer);
    if (isBody(layer)) break;
    layer = innerLayer(layer);
  }
  return path;
}

function isBody(o: JsonObject): boolean {
  return Array.isArray(o.content) || Array.isArray(o.content_v2) || typeof o.title === "string";
}

function innerLayer(o: JsonObject): JsonObject | undefined {
  for (const key of ["post", ...localesOf(o), "content"]) {
    const inner = asObject(o[key]);
    if (inner) return inner;
  }
  return Object.values(o).map(asObject).find((v) => v !== undefined);
}

function renderFlat(el: JsonObject, ctx: ConvertContext, resources: ResourceRef[]): string {
  const text = typeof el.text === "string" ? el.text : "";
  switch (el.tag) {
    case "text":
      return styled(text, asArray(el.style));
    case "a": {
      const href = asText(el.href);
      return href ? `[${text || href}](${href})` : text;
    }
    case "at":
      return atPlaceholder(el, ctx);
    case "img": {
      const key = asText(el.image_key);
      if (!key) return "";
      resources.push({ type: "image", file_key: key });
      return `![image](${key})`;
    }
    case "media": {
      const key = asText(el.file_key);
      if (!key) return "";
      const cover = asText(el.image_key);
      resources.push({
        type: "video",
        file_key: key,
        ...(cover ? { cover_image_key: cover } : {}),
      });
      return `<video key="${attr(key)}"/>`;
    }
    case "emotion":
      return asText(el.emoji_type) ? `:${el.emoji_type}:` : "";
    case "code_block":
      return `\n\`\`\`${asText(el.language)?.toLowerCase() ?? ""}\n${text}\n\`\`\`\n`;
    case "hr":
      return "\n---\n";
    case "md":
      return markdownElement(text, ctx, resources);
    default:
      return text;
  }
}

function renderPlain(el: JsonObject, ctx: ConvertContext): string {
  const text = typeof el.text === "string" ? el.text : "";
  switch (el.tag) {
    case "a":
      return text || (asText(el.href) ?? "");
    case "at":
      return atPlaceholder(el, ctx);
    case "emotion":
      return asText(el.emoji_type) ? `:${el.emoji_type}:` : "";
    case "img":
    case "media":
    case "hr":
      return "";
    case "md":
      return markdownElement(text, ctx, []);
    default:
      return text;
  }
}

function atPlaceholder(el: JsonObject, ctx: ConvertContext): string {
  const id = asText(el.user_id) ?? asText(el.open_id);
  const name = asText(el.user_name);
  return id ? ctx.mention(id, name) : name ? `@${name}` : "";
}

/** `bold`, `italic`, `underline`, `lineThrough` and inline code, as markdown. */
function styled(text: string, style: unknown[]): string {
  if (text === "" || style.length === 0) return text;
  let out = text;
  if (style.includes("codeInline") || style.includes("code")) out = `\`${out}\``;
  if (style.includes("bold")) out = `**${out}**`;
  if (style.includes("italic")) out = `*${out}*`;
  if (style.includes("underline")) out = `<u>${out}</u>`;
  if (style.includes("lineThrough") || style.includes("strikethrough")) out = `~~${out}~~`;
  return out;
}

const AT_TAG = /<at\s+(?:user_id|id|open_id)\s*=\s*"([^"]*)"\s*>([^<]*)<\/at>/g;
const IMAGE_REF = /!\[[^\]]*\]\(([^)\s]+)\)/g;

/**
 * An `md` element: outside fenced code, `<at>` tags become mention
 * placeholders and `![…](key)` images become resources (URLs are not keys).
 */
function markdownElement(md: string, ctx: ConvertContext, resources: ResourceRef[]): string {
  const parts = md.split("```");
  const closed = parts.length % 2 === 1;
  return parts.map((part, i) => {
    const insideFence = i % 2 === 1 && (closed || i < parts.length - 1);
    if (insideFence) return part;
    for (const m of part.matchAll(IMAGE_REF)) {
      const key = m[1] ?? "";
      if (!key.includes("://")) resources.push({ type: "image", file_key: key });
    }
    return part.replace(
      AT_TAG,
      (_t, id: string, name: string) => ctx.mention(id, name || undefined),
    );
  }).join("```");
}

/** One attachment-zone entry: `<file …/>` (a resource) or `<folder …/>`. */
function renderZoneFile(f: JsonObject | undefined, resources: ResourceRef[]): string[] {
  const key = asText(f?.file_key);
  if (!f || !key) return [];
  const name = asText(f.file_name);
  if (f.is_folder === true) return [`<folder key="${attr(key)}"${optionalAttr("name", name)}/>`];
  resources.push({ type: "file", file_key: key, ...(name ? { file_name: name } : {}) });
  return [`<file key="${attr(key)}"${optionalAttr("name", name)}/>`];
}
