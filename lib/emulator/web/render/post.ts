/**
 * Rich-text (`post`) messages: a title and lines of elements — styled text,
 * links, mentions, images, media, emotions, code blocks, rules and `md`
 * elements (rendered as markdown). Accepts the stored shape `{title,
 * content}` and the locale-wrapped send shape `{zh_cn: {…}}`.
 * @module
 */

import {
  arr,
  codeBlock,
  escapeHtml,
  escapeLines,
  isObj,
  link,
  type Obj,
  resourceUrl,
  safeHref,
  str,
} from "./_html.ts";
import { mentionChip } from "./_md_html.ts";
import { emojiGlyph } from "./emoji.ts";
import { renderMarkdown } from "./markdown.ts";
import type { RenderContext } from "./types.ts";

/**
 * The title and lines of a post, whichever shape it came in.
 *
 * @example
 * ```ts
 * import { postBody } from "./post.ts";
 * const b = postBody({ en_us: { title: "T", content: [[{ tag: "hr" }]] } });
 * if (b.title !== "T" || b.lines.length !== 1) throw new Error();
 * ```
 */
export function postBody(content: unknown): { title: string; lines: unknown[][] } {
  let body: unknown = isObj(content) && isObj(content.post) ? content.post : content;
  if (isObj(body) && !Array.isArray(body.content)) {
    const locale = Object.keys(body).find((k) => /^[a-z]{2}_[a-z]{2}$/.test(k));
    body = locale ? body[locale] : body;
  }
  if (!isObj(body)) return { title: "", lines: [] };
  return { title: str(body.title), lines: arr(body.content).map(arr) };
}

const STYLE_TAGS: [string, string][] = [
  ["bold", "strong"],
  ["italic", "em"],
  ["underline", "u"],
  ["lineThrough", "del"],
];

function styled(el: Obj, html: string): string {
  const styles = arr(el.style).map(String);
  let out = html;
  for (const [style, tag] of STYLE_TAGS) {
    if (styles.includes(style)) out = `<${tag}>${out}</${tag}>`;
  }
  return out;
}

/**
 * The name an `at` element (or a text placeholder) stands for: a placeholder
 * of the message, else the name given, else a lookup, else the id.
 *
 * @example
 * ```ts
 * import { mentionName } from "./post.ts";
 * import { contextFor } from "./types.ts";
 * const ctx = contextFor(undefined, [{ key: "@_user_1", id: "ou_b", name: "Bob" }]);
 * if (mentionName("@_user_1", ctx) !== "Bob" || mentionName("all", ctx) !== "All") throw new Error();
 * if (mentionName("ou_x", ctx, "X") !== "X" || mentionName("ou_y", ctx) !== "ou_y") throw new Error();
 * ```
 */
export function mentionName(id: string, ctx: RenderContext, given?: string): string {
  if (id === "all" || id === "@_all") return "All";
  const placeholder = ctx.mentions.find((m) => m.key === id);
  if (placeholder) return placeholder.name;
  return given || ctx.nameOf(id) || id;
}

function element(el: Obj, ctx: RenderContext): string {
  switch (el.tag) {
    case "text":
      return styled(el, escapeLines(str(el.text)));
    case "a": {
      const href = safeHref(el.href);
      const inner = styled(el, escapeHtml(str(el.text, str(el.href))));
      return href ? link(href, inner) : inner;
    }
    case "at":
      return mentionChip(mentionName(str(el.user_id), ctx, str(el.user_name)));
    case "img":
      return `<img class="post-img" src="${
        escapeHtml(resourceUrl(str(el.image_key)))
      }" alt="image">`;
    case "media":
      return `<div class="tile tile-video"><img src="${
        escapeHtml(resourceUrl(str(el.image_key)))
      }" alt="video cover"><span class="play">▶</span></div>`;
    case "emotion": {
      const type = str(el.emoji_type);
      const glyph = emojiGlyph(type);
      return `<span class="emoji" title="${escapeHtml(type)}">${
        glyph ?? `[${escapeHtml(type)}]`
      }</span>`;
    }
    case "code_block":
      return codeBlock(str(el.language), str(el.text));
    case "hr":
      return "<hr>";
    case "md":
      return `<div class="md">${renderMarkdown(str(el.text), { ctx })}</div>`;
    default:
      return `<span class="unknown">[${escapeHtml(String(el.tag))}]</span>`;
  }
}

/**
 * Renders a post's content as HTML.
 *
 * @example
 * ```ts
 * import { renderPost } from "./post.ts";
 * import { contextFor } from "./types.ts";
 * const html = renderPost({ title: "T", content: [[{ tag: "text", text: "<b>", style: ["bold"] }]] }, contextFor(undefined));
 * if (html !== '<div class="post"><div class="post-title">T</div><div class="post-line"><strong>&lt;b&gt;</strong></div></div>') {
 *   throw new Error(html);
 * }
 * ```
 */
export function renderPost(content: unknown, ctx: RenderContext): string {
  const { title, lines } = postBody(content);
  const head = title ? `<div class="post-title">${escapeHtml(title)}</div>` : "";
  const body = lines.map((line) =>
    `<div class="post-line">${line.filter(isObj).map((el) => element(el, ctx)).join("")}</div>`
  ).join("");
  return `<div class="post">${head}${body}</div>`;
}

/**
 * The post as one line of plain text (for reply quotes and previews).
 *
 * @example
 * ```ts
 * import { postPreview } from "./post.ts";
 * import { contextFor } from "./types.ts";
 * const p = postPreview({ title: "", content: [[{ tag: "md", text: "# Hi\nthere" }]] }, contextFor(undefined));
 * if (p !== "# Hi there") throw new Error(p);
 * ```
 */
export function postPreview(content: unknown, ctx: RenderContext): string {
  const { title, lines } = postBody(content);
  const words = lines.flat().filter(isObj).map((el) => {
    if (el.tag === "at") return `@${mentionName(str(el.user_id), ctx, str(el.user_name))}`;
    if (el.tag === "img") return "[Image]";
    if (el.tag === "media") return "[Video]";
    if (el.tag === "emotion") return emojiGlyph(str(el.emoji_type)) ?? `[${str(el.emoji_type)}]`;
    return str(el.text);
  });
  return [title, ...words].filter((s) => s !== "").join(" ").replace(/\s+/g, " ").trim();
}
