/**
 * Interactive cards as Feishu draws them: schema 2.0 (`header` +
 * `body.elements`) and v1 (`elements` or `i18n_elements` at the top level),
 * with markdown, div/text, hr, img, note, column sets, buttons, action
 * groups, collapsible panels, forms with inputs and menus, tables and text
 * tags. Unsupported
 * components show as a labelled placeholder; template and card-entity
 * references show as a tile.
 * @module
 */

import { arr, escapeHtml, isObj, type Obj, resourceUrl, str } from "./_html.ts";
import {
  renderButton,
  renderHeader,
  renderText,
  templateClass,
  textContent,
} from "./_card_text.ts";
import { renderForm, renderInput, renderSelect } from "./_card_form.ts";
import { mentionChip } from "./_md_html.ts";
import { renderMarkdown } from "./markdown.ts";
import type { RenderContext } from "./types.ts";

const MAX_DEPTH = 24;
const ALIGN = new Set(["left", "center", "right"]);

function align(el: Obj): string {
  const a = str(el.text_align);
  return ALIGN.has(a) ? ` style="text-align:${a}"` : "";
}

/** Whether the elements being drawn sit inside a `form` (their fields then submit with it). */
type InForm = boolean;

function elements(list: unknown, ctx: RenderContext, depth: number, inForm: InForm): string {
  return arr(list).filter(isObj).map((el) => element(el, ctx, depth + 1, inForm)).join("");
}

function placeholder(tag: string): string {
  return `<div class="card-unsupported">[${escapeHtml(tag)}]</div>`;
}

function image(el: Obj): string {
  const key = str(el.img_key ?? el.image_key);
  const alt = textContent(el.alt);
  const title = textContent(el.title);
  const caption = title ? `<div class="card-img-title">${escapeHtml(title)}</div>` : "";
  return `<figure class="card-img">${caption}<img src="${escapeHtml(resourceUrl(key))}" alt="${
    escapeHtml(alt)
  }"></figure>`;
}

function div(el: Obj, ctx: RenderContext, depth: number, inForm: InForm): string {
  const text = el.text === undefined
    ? ""
    : `<div class="card-text">${renderText(el.text, ctx)}</div>`;
  const fields = arr(el.fields).filter(isObj).map((f) =>
    `<div class="card-field${f.is_short ? " short" : ""}">${renderText(f.text, ctx)}</div>`
  ).join("");
  const extra = isObj(el.extra)
    ? `<div class="card-extra">${element(el.extra, ctx, depth, inForm)}</div>`
    : "";
  return `<div class="card-div"${align(el)}>${text}${
    fields ? `<div class="card-fields">${fields}</div>` : ""
  }${extra}</div>`;
}

function columnSet(el: Obj, ctx: RenderContext, depth: number, inForm: InForm): string {
  const cols = arr(el.columns).filter(isObj).map((c) => {
    const weight = typeof c.weight === "number" && c.weight > 0 ? Math.min(c.weight, 10) : 1;
    const flex = c.width === "auto" ? "0 0 auto" : `${weight} 1 0`;
    return `<div class="card-column" style="flex:${flex}">${
      elements(c.elements, ctx, depth, inForm)
    }</div>`;
  }).join("");
  return `<div class="card-columns">${cols}</div>`;
}

function panel(el: Obj, ctx: RenderContext, depth: number, inForm: InForm): string {
  const header = isObj(el.header) ? el.header : {};
  const title = renderText(header.title ?? "", ctx) || "Details";
  return `<details class="card-panel"${
    el.expanded === true ? " open" : ""
  }><summary>${title}</summary>${elements(el.elements, ctx, depth, inForm)}</details>`;
}

function table(el: Obj, ctx: RenderContext): string {
  const cols = arr(el.columns).filter(isObj);
  const head = cols.map((c) => `<th>${escapeHtml(str(c.display_name, str(c.name)))}</th>`).join("");
  const rows = arr(el.rows).filter(isObj).map((r) =>
    `<tr>${
      cols.map((c) => {
        const v = r[str(c.name)];
        const cell = typeof v === "string"
          ? renderMarkdown(v, { ctx })
          : escapeHtml(v === undefined ? "" : JSON.stringify(v));
        return `<td>${cell}</td>`;
      }).join("")
    }</tr>`
  ).join("");
  return `<div class="table-wrap"><table><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table></div>`;
}

function element(el: Obj, ctx: RenderContext, depth: number, inForm: InForm): string {
  if (depth > MAX_DEPTH) return placeholder("too deep");
  switch (el.tag) {
    case "markdown":
      return `<div class="card-md"${align(el)}>${renderMarkdown(str(el.content), { ctx })}</div>`;
    case "div":
      return div(el, ctx, depth, inForm);
    case "plain_text":
    case "lark_md":
      return `<div class="card-text">${renderText(el, ctx)}</div>`;
    case "hr":
      return `<hr class="card-hr">`;
    case "img":
      return image(el);
    case "note":
      return `<div class="card-note">${
        arr(el.elements).filter(isObj).map((n) =>
          n.tag === "img"
            ? `<img class="note-img" src="${escapeHtml(resourceUrl(str(n.img_key)))}" alt="">`
            : `<span>${renderText(n, ctx)}</span>`
        ).join(" ")
      }</div>`;
    case "column_set":
      return columnSet(el, ctx, depth, inForm);
    case "column":
    case "interactive_container":
      return `<div class="card-${el.tag}">${elements(el.elements, ctx, depth, inForm)}</div>`;
    case "form":
      return renderForm(el, elements(el.elements, ctx, depth, true));
    case "input":
      return renderInput(el, ctx, inForm);
    case "select_static":
      return `<div class="card-action">${renderSelect(el, inForm)}</div>`;
    case "button":
      return `<div class="card-action">${renderButton(el)}</div>`;
    case "action":
      return `<div class="card-action">${
        arr(el.actions).filter(isObj).map((a) =>
          a.tag === "button"
            ? renderButton(a)
            : a.tag === "select_static"
            ? renderSelect(a, inForm)
            : placeholder(str(a.tag))
        ).join("")
      }</div>`;
    case "collapsible_panel":
      return panel(el, ctx, depth, inForm);
    case "table":
      return table(el, ctx);
    case "text_tag":
      return `<span class="text-tag ${templateClass(el.color)}">${
        escapeHtml(textContent(el.text))
      }</span>`;
    case "person":
      return mentionChip(ctx.nameOf(str(el.user_id)) ?? str(el.user_id));
    case "person_list":
      return arr(el.persons).filter(isObj).map((p) =>
        mentionChip(ctx.nameOf(str(p.id)) ?? str(p.id))
      ).join(" ");
    default:
      return placeholder(String(el.tag));
  }
}

function v1Elements(card: Obj): unknown {
  if (Array.isArray(card.elements)) return card.elements;
  if (!isObj(card.i18n_elements)) return [];
  const i18n = card.i18n_elements;
  return i18n.en_us ?? i18n.zh_cn ?? Object.values(i18n)[0];
}

function v1Header(card: Obj): unknown {
  if (card.header !== undefined || !isObj(card.i18n_header)) return card.header;
  const i18n = card.i18n_header;
  return i18n.en_us ?? i18n.zh_cn ?? Object.values(i18n)[0];
}

/**
 * Renders a card (the content of an `interactive` message) as HTML.
 *
 * @example
 * ```ts
 * import { renderCard } from "./card.ts";
 * import { contextFor } from "./types.ts";
 * const html = renderCard({
 *   schema: "2.0",
 *   header: { title: { tag: "plain_text", content: "LingTai" }, template: "blue" },
 *   body: { elements: [{ tag: "markdown", content: "⏳ thinking" }] },
 * }, contextFor(undefined));
 * if (!html.includes('<div class="card-header tpl-blue"><div class="card-title">LingTai</div></div>')) throw new Error(html);
 * if (!html.includes("<p>⏳ thinking</p>")) throw new Error(html);
 * ```
 */
export function renderCard(card: unknown, ctx: RenderContext): string {
  if (!isObj(card)) return `<div class="card">${placeholder("not a card")}</div>`;
  if (card.type === "template" || card.type === "card") {
    const data = isObj(card.data) ? card.data : {};
    const what = card.type === "template"
      ? `Template card ${str(data.template_id)}`
      : `Card entity ${str(data.card_id)}`;
    return `<div class="card"><div class="card-body">${placeholder(what)}</div></div>`;
  }
  const v2 = card.schema === "2.0";
  const header = renderHeader(v2 ? card.header : v1Header(card), ctx);
  const list = v2 ? (isObj(card.body) ? card.body.elements : []) : v1Elements(card);
  return `<div class="card">${header}<div class="card-body">${
    elements(list, ctx, 0, false)
  }</div></div>`;
}

/**
 * The card's title (header, or its first text) for quotes and previews.
 *
 * @example
 * ```ts
 * import { cardPreview } from "./card.ts";
 * const t = cardPreview({ schema: "2.0", header: { title: { tag: "plain_text", content: "Hi" } }, body: { elements: [] } });
 * if (t !== "Hi") throw new Error(t);
 * ```
 */
export function cardPreview(card: unknown): string {
  if (!isObj(card)) return "";
  const v2 = card.schema === "2.0";
  const header = v2 ? card.header : v1Header(card);
  const title = isObj(header) ? textContent(header.title) : "";
  if (title) return title;
  const list = arr(v2 ? (isObj(card.body) ? card.body.elements : []) : v1Elements(card));
  const first = list.filter(isObj).find((e) => e.tag === "markdown" || e.tag === "div");
  if (!first) return "";
  return (first.tag === "markdown" ? str(first.content) : textContent(first.text))
    .replace(/\s+/g, " ").trim();
}
