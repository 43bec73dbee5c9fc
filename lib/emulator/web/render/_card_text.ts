/**
 * Card text objects (`plain_text`, `lark_md`, i18n variants), header colours
 * and buttons: the small pieces the card element renderer is made of.
 * @module
 */

import { arr, escapeHtml, escapeLines, isObj, type Obj, safeHref, str } from "./_html.ts";
import { renderMarkdown } from "./markdown.ts";
import type { RenderContext } from "./types.ts";

/**
 * The content of a text object, its i18n variant, or a bare string.
 *
 * @example
 * ```ts
 * import { textContent } from "./_card_text.ts";
 * if (textContent({ tag: "plain_text", content: "a" }) !== "a") throw new Error();
 * if (textContent({ i18n_content: { zh_cn: "中", en_us: "en" } }) !== "en") throw new Error();
 * if (textContent("s") !== "s" || textContent(3) !== "") throw new Error();
 * ```
 */
export function textContent(t: unknown): string {
  if (typeof t === "string") return t;
  if (!isObj(t)) return "";
  if (typeof t.content === "string") return t.content;
  if (isObj(t.i18n_content)) {
    const i18n = t.i18n_content;
    return str(i18n.en_us ?? i18n.zh_cn ?? Object.values(i18n)[0]);
  }
  return str(t.text);
}

/**
 * Renders a text object: `lark_md` as markdown, anything else as plain text.
 *
 * @example
 * ```ts
 * import { renderText } from "./_card_text.ts";
 * import { contextFor } from "./types.ts";
 * const ctx = contextFor(undefined);
 * if (renderText({ tag: "plain_text", content: "**a**" }, ctx) !== "**a**") throw new Error();
 * if (renderText({ tag: "lark_md", content: "**a**" }, ctx) !== '<div class="card-md"><p><strong>a</strong></p></div>') throw new Error();
 * ```
 */
export function renderText(t: unknown, ctx: RenderContext): string {
  const content = textContent(t);
  if (isObj(t) && t.tag === "lark_md") {
    return `<div class="card-md">${renderMarkdown(content, { ctx })}</div>`;
  }
  return escapeLines(content);
}

const TEMPLATES = new Set([
  "blue",
  "wathet",
  "turquoise",
  "green",
  "yellow",
  "orange",
  "red",
  "carmine",
  "violet",
  "purple",
  "indigo",
  "grey",
  "default",
]);

/**
 * The header colour class for a card `template` (unknown → `default`).
 *
 * @example
 * ```ts
 * import { templateClass } from "./_card_text.ts";
 * if (templateClass("blue") !== "tpl-blue" || templateClass("x;y") !== "tpl-default") throw new Error();
 * ```
 */
export function templateClass(template: unknown): string {
  const t = str(template, "default").toLowerCase();
  return `tpl-${TEMPLATES.has(t) ? t : "default"}`;
}

/**
 * Renders a card header: title, subtitle, tags, template colour; nothing
 * when it has no text.
 *
 * @example
 * ```ts
 * import { renderHeader } from "./_card_text.ts";
 * import { contextFor } from "./types.ts";
 * const html = renderHeader({ title: { tag: "plain_text", content: "<T>" }, template: "red" }, contextFor(undefined));
 * if (html !== '<div class="card-header tpl-red"><div class="card-title">&lt;T&gt;</div></div>') throw new Error(html);
 * if (renderHeader({ template: "red" }, contextFor(undefined)) !== "") throw new Error();
 * ```
 */
export function renderHeader(header: unknown, ctx: RenderContext): string {
  if (!isObj(header)) return "";
  const title = textContent(header.title);
  const subtitle = textContent(header.subtitle);
  const tags = arr(header.text_tag_list).filter(isObj).map((tag) =>
    `<span class="text-tag ${templateClass(tag.color)}">${escapeHtml(textContent(tag.text))}</span>`
  ).join("");
  if (!title && !subtitle && !tags) return "";
  const sub = subtitle
    ? `<div class="card-subtitle">${renderText(header.subtitle, ctx)}</div>`
    : "";
  return `<div class="card-header ${templateClass(header.template)}">` +
    `<div class="card-title">${escapeHtml(title)}${tags}</div>${sub}</div>`;
}

const BUTTON_TYPES = new Set([
  "default",
  "primary",
  "danger",
  "text",
  "laser",
  "primary_filled",
  "danger_filled",
  "primary_text",
  "danger_text",
]);

/** Where a button leads: a callback value, a URL, both or neither. */
export interface ButtonTarget {
  callback?: unknown;
  url?: string;
}

/**
 * Reads a button's callback value (`value`, or a `callback` behaviour) and
 * URL (`url`, `multi_url` or an `open_url` behaviour).
 *
 * @example
 * ```ts
 * import { buttonTarget } from "./_card_text.ts";
 * const t = buttonTarget({ tag: "button", behaviors: [{ type: "callback", value: { a: 1 } }] });
 * if (JSON.stringify(t.callback) !== '{"a":1}' || t.url !== undefined) throw new Error();
 * ```
 */
export function buttonTarget(el: Obj): ButtonTarget {
  const target: ButtonTarget = {};
  if (el.value !== undefined) target.callback = el.value;
  const multi = isObj(el.multi_url) ? el.multi_url : {};
  const url = safeHref(el.url) ?? safeHref(multi.url) ?? safeHref(multi.pc_url);
  if (url) target.url = url;
  for (const b of arr(el.behaviors).filter(isObj)) {
    if (b.type === "callback") target.callback = b.value ?? {};
    if (b.type === "open_url") {
      target.url ??= safeHref(b.default_url) ?? safeHref(b.pc_url);
    }
  }
  if (target.callback === undefined && target.url === undefined) target.callback = {};
  return target;
}

const FORM_ACTIONS = new Set(["submit", "reset"]);

/**
 * Renders a button; the page posts `data-value` to `/__emu/api/click` or
 * opens `data-url`. In a form, `data-form-action` (`submit`, `reset`) makes
 * it send the form's fields or reset them.
 *
 * @example
 * ```ts
 * import { renderButton } from "./_card_text.ts";
 * const html = renderButton({ tag: "button", text: { content: "Go" }, value: { k: "v" }, disabled: true });
 * if (html !== '<button type="button" class="card-btn btn-default" data-value="{&quot;k&quot;:&quot;v&quot;}" data-tag="button" disabled>Go</button>') {
 *   throw new Error(html);
 * }
 * ```
 */
export function renderButton(el: Obj): string {
  const type = str(el.type, "default");
  const cls = `card-btn btn-${BUTTON_TYPES.has(type) ? type : "default"}`;
  const target = buttonTarget(el);
  const data = [
    target.callback !== undefined
      ? ` data-value="${escapeHtml(JSON.stringify(target.callback))}"`
      : "",
    target.url ? ` data-url="${escapeHtml(target.url)}"` : "",
    typeof el.name === "string" ? ` data-name="${escapeHtml(el.name)}"` : "",
    ` data-tag="${escapeHtml(str(el.tag, "button"))}"`,
    FORM_ACTIONS.has(str(el.form_action_type))
      ? ` data-form-action="${str(el.form_action_type)}"`
      : "",
  ].join("");
  const disabled = el.disabled === true ? " disabled" : "";
  return `<button type="button" class="${cls}"${data}${disabled}>${
    escapeHtml(textContent(el.text))
  }</button>`;
}
