/**
 * Markdown to safe HTML, the way Feishu shows it in cards and post `md`
 * elements: a real CommonMark + GFM parser (`mdast-util-from-markdown` with
 * the GFM extensions) gives the tree, and a small walker writes HTML from it,
 * escaping every text and attribute. Raw HTML is shown as text, except the
 * Feishu tags `<at>`, `<font color>` and `<br>`; links keep only http(s) and
 * mailto; `![alt](img_key)` shows an uploaded image. A single newline is a
 * line break, as in Feishu.
 * @module
 */

import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { gfm } from "micromark-extension-gfm";
import { codeBlock, escapeHtml, link, resourceUrl, safeHref } from "./_html.ts";
import { atTarget, fontClass, mentionChip, parseFeishuTag } from "./_md_html.ts";
import { emojiGlyph } from "./emoji.ts";
import type { RenderContext } from "./types.ts";

/** The parts of an mdast node the walker reads. */
interface MdNode {
  type: string;
  children?: MdNode[];
  value?: string;
  depth?: number;
  ordered?: boolean;
  start?: number | null;
  spread?: boolean;
  checked?: boolean | null;
  lang?: string | null;
  url?: string;
  alt?: string | null;
  title?: string | null;
  identifier?: string;
  label?: string;
  align?: (string | null)[] | null;
}

/** Options for {@linkcode renderMarkdown}. */
export interface MarkdownOptions {
  /** Resolves `<at>` ids to names. */
  ctx?: RenderContext;
  /** A single newline becomes `<br>` (Feishu's behaviour; default true). */
  breaks?: boolean;
}

interface Walk {
  ctx?: RenderContext;
  breaks: boolean;
  defs: Map<string, { url: string; title?: string | null }>;
}

const ALIGN = new Set(["left", "right", "center"]);

function collectDefs(node: MdNode, defs: Walk["defs"]): void {
  if (node.type === "definition" && node.identifier && !defs.has(node.identifier)) {
    defs.set(node.identifier, { url: node.url ?? "", title: node.title });
  }
  for (const c of node.children ?? []) collectDefs(c, defs);
}

function text(value: string, w: Walk): string {
  const escaped = escapeHtml(value).replace(/:([A-Za-z]+):/g, (all, name: string) => {
    const glyph = emojiGlyph(name);
    return glyph ? `<span class="emoji" title="${name}">${glyph}</span>` : all;
  });
  return w.breaks ? escaped.replace(/\r?\n/g, "<br>") : escaped;
}

function image(url: string, alt: string): string {
  if (safeHref(url)) return link(url, `🖼 ${escapeHtml(alt || url)}`);
  if (/^[\w./-]+$/.test(url)) {
    return `<img class="md-img" src="${escapeHtml(resourceUrl(url))}" alt="${escapeHtml(alt)}">`;
  }
  return escapeHtml(`![${alt}](${url})`);
}

function reference(node: MdNode, w: Walk): string {
  const def = w.defs.get(node.identifier ?? "");
  const inner = inline(node.children ?? [], w);
  if (!def) {
    if (node.type === "imageReference") return escapeHtml(`![${node.alt ?? ""}]`);
    return `[${inner}]`;
  }
  if (node.type === "imageReference") return image(def.url, node.alt ?? "");
  const href = safeHref(def.url);
  return href ? link(href, inner) : inner;
}

function phrasing(node: MdNode, w: Walk): string {
  const kids = () => inline(node.children ?? [], w);
  switch (node.type) {
    case "text":
      return text(node.value ?? "", w);
    case "emphasis":
      return `<em>${kids()}</em>`;
    case "strong":
      return `<strong>${kids()}</strong>`;
    case "delete":
      return `<del>${kids()}</del>`;
    case "inlineCode":
      return `<code>${escapeHtml(node.value ?? "")}</code>`;
    case "break":
      return "<br>";
    case "link": {
      const href = safeHref(node.url);
      return href ? link(href, kids()) : kids();
    }
    case "image":
      return image(node.url ?? "", node.alt ?? "");
    case "linkReference":
    case "imageReference":
      return reference(node, w);
    case "footnoteReference":
      return `<sup class="fn">[${escapeHtml(node.label ?? node.identifier ?? "")}]</sup>`;
    case "html":
      return escapeHtml(node.value ?? "");
    default:
      return node.children ? kids() : escapeHtml(node.value ?? "");
  }
}

/** Index of the closing tag matching the opening one at `from`, or -1. */
function closingIndex(nodes: MdNode[], from: number, name: string): number {
  let depth = 0;
  for (let i = from + 1; i < nodes.length; i++) {
    const n = nodes[i];
    if (n?.type !== "html") continue;
    const tag = parseFeishuTag(n.value ?? "");
    if (tag?.name !== name || tag.selfClosing) continue;
    if (!tag.closing) depth++;
    else if (depth-- === 0) return i;
  }
  return -1;
}

function plainText(nodes: MdNode[]): string {
  return nodes.map((n) => n.value ?? plainText(n.children ?? [])).join("");
}

function inline(nodes: MdNode[], w: Walk): string {
  let out = "";
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i] as MdNode;
    const tag = node.type === "html" ? parseFeishuTag(node.value ?? "") : undefined;
    if (!tag || tag.closing) {
      out += tag?.name === "br" ? "<br>" : phrasing(node, w);
      continue;
    }
    if (tag.name === "br") {
      out += "<br>";
      continue;
    }
    const end = tag.selfClosing ? -1 : closingIndex(nodes, i, tag.name);
    const inner = end === -1 ? [] : nodes.slice(i + 1, end);
    if (tag.name === "at") {
      const id = atTarget(tag);
      const given = plainText(inner).trim();
      out += mentionChip(id === "all" ? "All" : given || w.ctx?.nameOf(id) || id);
    } else {
      const cls = fontClass(tag.attrs.color);
      const html = inline(inner, w);
      out += cls ? `<span class="${cls}">${html}</span>` : html;
    }
    if (end !== -1) i = end;
  }
  return out;
}

function listItem(node: MdNode, tight: boolean, w: Walk): string {
  const body = (node.children ?? []).map((c) =>
    tight && c.type === "paragraph" ? inline(c.children ?? [], w) : block(c, w)
  ).join("");
  if (typeof node.checked === "boolean") {
    const box = `<input type="checkbox" disabled${node.checked ? " checked" : ""}> `;
    return `<li class="task">${box}${body}</li>`;
  }
  return `<li>${body}</li>`;
}

function table(node: MdNode, w: Walk): string {
  const rows = node.children ?? [];
  const cell = (c: MdNode, i: number, tagName: string) => {
    const a = node.align?.[i];
    const style = a && ALIGN.has(a) ? ` style="text-align:${a}"` : "";
    return `<${tagName}${style}>${inline(c.children ?? [], w)}</${tagName}>`;
  };
  const row = (r: MdNode, tagName: string) =>
    `<tr>${(r.children ?? []).map((c, i) => cell(c, i, tagName)).join("")}</tr>`;
  const [head, ...body] = rows;
  const thead = head ? `<thead>${row(head, "th")}</thead>` : "";
  const tbody = body.length ? `<tbody>${body.map((r) => row(r, "td")).join("")}</tbody>` : "";
  return `<div class="table-wrap"><table>${thead}${tbody}</table></div>`;
}

function block(node: MdNode, w: Walk): string {
  const blocks = () => (node.children ?? []).map((c) => block(c, w)).join("");
  switch (node.type) {
    case "paragraph":
      return `<p>${inline(node.children ?? [], w)}</p>`;
    case "heading": {
      const d = Math.min(Math.max(node.depth ?? 1, 1), 6);
      return `<h${d}>${inline(node.children ?? [], w)}</h${d}>`;
    }
    case "thematicBreak":
      return "<hr>";
    case "blockquote":
      return `<blockquote>${blocks()}</blockquote>`;
    case "list": {
      const tight = node.spread !== true &&
        (node.children ?? []).every((c) => c.spread !== true);
      const items = (node.children ?? []).map((c) => listItem(c, tight, w)).join("");
      if (!node.ordered) return `<ul>${items}</ul>`;
      const start = node.start ?? 1;
      return start === 1 ? `<ol>${items}</ol>` : `<ol start="${start}">${items}</ol>`;
    }
    case "code":
      return codeBlock(node.lang ?? "", node.value ?? "");
    case "html":
      return `<p>${text(node.value ?? "", w)}</p>`;
    case "table":
      return table(node, w);
    case "definition":
      return "";
    case "footnoteDefinition":
      return `<div class="footnote"><sup>[${
        escapeHtml(node.label ?? node.identifier ?? "")
      }]</sup> ${blocks()}</div>`;
    default:
      return node.children ? blocks() : `<p>${text(node.value ?? "", w)}</p>`;
  }
}

/**
 * Renders markdown as safe HTML (see the module doc for the rules).
 *
 * @example
 * ```ts
 * import { renderMarkdown } from "./markdown.ts";
 * const html = renderMarkdown("**hi** <script>x</script>\n- a");
 * if (html !== "<p><strong>hi</strong> &lt;script&gt;x&lt;/script&gt;</p><ul><li>a</li></ul>") {
 *   throw new Error(html);
 * }
 * ```
 */
export function renderMarkdown(md: string, options: MarkdownOptions = {}): string {
  const tree = fromMarkdown(md, {
    extensions: [gfm()],
    mdastExtensions: [gfmFromMarkdown()],
  }) as unknown as MdNode;
  const w: Walk = { ctx: options.ctx, breaks: options.breaks ?? true, defs: new Map() };
  collectDefs(tree, w.defs);
  return (tree.children ?? []).map((c) => block(c, w)).join("");
}
