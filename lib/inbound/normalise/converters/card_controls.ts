/**
 * Card form controls in the card's flat text: selects and date/time pickers
 * show no text of their own besides a placeholder, so each becomes one
 * bracketed line naming the control, its placeholder, its option texts and
 * its preset value (`[select: Region — options: EU, US]`). Option values and
 * people's ids are machine data and never shown.
 * @module
 */

import { asArray, asObject, type JsonObject } from "../_json.ts";
import { localeText, visibleText } from "../_visible.ts";

/** What each control tag is called in the text. */
const CONTROL_LABELS: Record<string, string> = {
  select_static: "select",
  multi_select_static: "multi-select",
  select_person: "select person",
  multi_select_person: "multi-select person",
  date_picker: "date picker",
  picker_time: "time picker",
  picker_datetime: "datetime picker",
};

/** The preset value of each picker. */
const PICKER_INITIAL = ["initial_date", "initial_time", "initial_datetime"];

/**
 * The shown text of a text node: a string, or an element's `content`/`text`,
 * else its i18n text. Undefined when it shows nothing.
 *
 * @example
 * ```ts
 * import { shownText } from "./card_controls.ts";
 * import assert from "node:assert/strict";
 * assert.equal(shownText({ tag: "plain_text", content: "", i18n_content: { en_us: "Go" } }), "Go");
 * assert.equal(shownText("Go"), "Go");
 * ```
 */
export function shownText(node: unknown): string | undefined {
  if (typeof node === "string") return node.trim() === "" ? undefined : node;
  const obj = asObject(node);
  if (!obj) return undefined;
  for (const key of ["content", "text"]) {
    const v = obj[key];
    if (typeof v === "string" && v.trim() !== "") return v;
  }
  return localeText(obj);
}

/**
 * The line of a form control, or undefined when `el` is not one.
 *
 * @example
 * ```ts
 * import { controlLine } from "./card_controls.ts";
 * import assert from "node:assert/strict";
 * assert.equal(
 *   controlLine({ tag: "select_static", placeholder: { tag: "plain_text", content: "Region" }, options: ["EU", "US"] }),
 *   "[select: Region — options: EU, US]",
 * );
 * assert.equal(controlLine({ tag: "date_picker", initial_date: "2026-08-03" }), "[date picker — initial: 2026-08-03]");
 * assert.equal(controlLine({ tag: "button" }), undefined);
 * ```
 */
export function controlLine(el: JsonObject): string | undefined {
  const label = typeof el.tag === "string" ? CONTROL_LABELS[el.tag] : undefined;
  if (!label) return undefined;
  const placeholder = shownText(el.placeholder);
  const parts: string[] = [];
  const options = asArray(el.options).map(optionOf).filter((o) => o.text !== undefined);
  if (options.length > 0) parts.push(`options: ${options.map((o) => o.text).join(", ")}`);
  const chosen = [el.initial_option, ...asArray(el.initial_options)]
    .map((v) => options.find((o) => o.value !== undefined && o.value === v)?.text)
    .filter((t) => t !== undefined);
  if (chosen.length > 0) parts.push(`selected: ${chosen.join(", ")}`);
  const initial = PICKER_INITIAL.map((k) => visibleText(el[k]).trim()).find((v) => v !== "");
  if (initial) parts.push(`initial: ${initial}`);
  return `[${label}${placeholder ? `: ${placeholder}` : ""}${
    parts.map((p) => ` — ${p}`).join("")
  }]`;
}

/** An option's shown text and value; a bare string is both. */
function optionOf(option: unknown): { text?: string; value?: unknown } {
  if (typeof option === "string") return { text: shownText(option), value: option };
  const o = asObject(option);
  return o ? { text: shownText(o.text), value: o.value } : {};
}
