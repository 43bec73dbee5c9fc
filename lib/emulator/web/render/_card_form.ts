/**
 * The card components a user types into or picks from: `form` containers,
 * `input` boxes and `select_static` menus. Each field carries its `name` as
 * `data-name`; the page collects a form's fields into `form_value` when a
 * submit button (`form_action_type: "submit"`) is clicked, and a field
 * outside a form calls back on its own (Enter in an input sends
 * `input_value`, choosing an option sends `option`).
 * @module
 */

import { buttonTarget, renderText, textContent } from "./_card_text.ts";
import { arr, escapeHtml, isObj, type Obj, str } from "./_html.ts";
import type { RenderContext } from "./types.ts";

function attr(name: string, value: string): string {
  return ` ${name}="${escapeHtml(value)}"`;
}

/** `data-name`, `data-tag` and, outside a form, the callback `data-value`. */
function fieldData(el: Obj, inForm: boolean): string {
  const name = typeof el.name === "string" ? attr("data-name", el.name) : "";
  const callback = inForm ? "" : attr("data-value", JSON.stringify(buttonTarget(el).callback));
  return `${name}${attr("data-tag", str(el.tag))}${callback}`;
}

function label(el: Obj, ctx: RenderContext): string {
  return el.label === undefined
    ? ""
    : `<span class="card-label">${renderText(el.label, ctx)}</span>`;
}

/**
 * Renders an `input`: its label, then a text box with the placeholder and
 * default value.
 *
 * @example
 * ```ts
 * import { renderInput } from "./_card_form.ts";
 * import { contextFor } from "./types.ts";
 * const html = renderInput({ tag: "input", name: "reason", placeholder: { content: "Why?" }, default_value: "ok" }, contextFor(undefined), true);
 * if (html !== '<div class="card-input"><input type="text" class="card-input-box" placeholder="Why?" value="ok" data-name="reason" data-tag="input"></div>') throw new Error(html);
 * ```
 */
export function renderInput(el: Obj, ctx: RenderContext, inForm: boolean): string {
  const type = el.input_type === "password" ? "password" : "text";
  const placeholder = textContent(el.placeholder);
  const value = typeof el.default_value === "string" ? attr("value", el.default_value) : "";
  const disabled = el.disabled === true ? " disabled" : "";
  return `<div class="card-input">${label(el, ctx)}<input type="${type}" class="card-input-box"${
    placeholder ? attr("placeholder", placeholder) : ""
  }${value}${fieldData(el, inForm)}${disabled}></div>`;
}

/**
 * Renders a `select_static`: a menu of its options (value = the option's
 * `value`), the placeholder first, `initial_option` chosen.
 *
 * @example
 * ```ts
 * import { renderSelect } from "./_card_form.ts";
 * const html = renderSelect({
 *   tag: "select_static", name: "env", initial_option: "b",
 *   options: [{ text: { content: "A" }, value: "a" }, { text: { content: "B" }, value: "b" }],
 * }, false);
 * if (!html.includes('<option value="b" selected>B</option>') || !html.includes('data-value="{}"')) throw new Error(html);
 * ```
 */
export function renderSelect(el: Obj, inForm: boolean): string {
  const initial = str(el.initial_option);
  const options = arr(el.options).filter(isObj).map((o) => {
    const value = str(o.value);
    const selected = initial !== "" && value === initial ? " selected" : "";
    return `<option${attr("value", value)}${selected}>${escapeHtml(textContent(o.text))}</option>`;
  }).join("");
  const placeholder = textContent(el.placeholder) || "Select…";
  const disabled = el.disabled === true ? " disabled" : "";
  return `<div class="card-select-wrap"><select class="card-select"${
    fieldData(el, inForm)
  }${disabled}><option value="">${escapeHtml(placeholder)}</option>${options}</select></div>`;
}

/**
 * Wraps a `form` container's children; `data-form` carries its name.
 *
 * @example
 * ```ts
 * import { renderForm } from "./_card_form.ts";
 * if (renderForm({ tag: "form", name: "f" }, "<p>x</p>") !== '<div class="card-form" data-form="f"><p>x</p></div>') throw new Error();
 * ```
 */
export function renderForm(el: Obj, children: string): string {
  return `<div class="card-form"${attr("data-form", str(el.name))}>${children}</div>`;
}
