/**
 * `interactive` (cards): the card JSON from the event kept as `content.card`
 * (never re-fetched), its version, and a flat text made of the card's visible
 * strings in document order (i18n texts included, one locale); form controls
 * read as one bracketed line each (see ./card_controls.ts).
 * @module
 */

import { asArray, asObject, type JsonObject } from "../_json.ts";
import { localesOf } from "../_visible.ts";
import type { Conversion } from "../types.ts";
import { controlLine, shownText } from "./card_controls.ts";

const EMPTY_CARD = "[interactive card]";
/** Element tags whose `content` (or `text`) is shown text. */
const TEXT_TAGS = new Set(["plain_text", "lark_md", "markdown", "md", "text", "a"]);
/**
 * Locale-keyed stand-ins for a key, read (one locale only) when the key
 * itself is absent.
 */
const I18N_KEYS: Record<string, string> = { header: "i18n_header", elements: "i18n_elements" };
/** Keys that may hold nested shown text, visited in this order. */
const NESTED_KEYS = [
  "header",
  "title",
  "subtitle",
  "text",
  "label",
  "placeholder",
  "content",
  "elements",
  "fields",
  "actions",
  "columns",
  "options",
  "extra",
  "body",
];

/**
 * Converts a card (v1 `{config, header, elements}`, v2 `{schema:"2.0", body}`,
 * or the simplified `{title, elements:[[…]]}` Feishu puts in receive events).
 *
 * @example
 * ```ts
 * import { convertInteractive } from "./interactive.ts";
 * import assert from "node:assert/strict";
 * const c = convertInteractive({
 *   schema: "2.0",
 *   header: { title: { tag: "plain_text", content: "Deploy" } },
 *   body: { elements: [{ tag: "markdown", content: "ready?" }, { tag: "button", text: { tag: "plain_text", content: "Go" } }] },
 * });
 * assert.equal(c.text, "Deploy\nready?\nGo");
 * assert.equal(c.content.kind === "interactive" && c.content.card_version, "v2");
 * ```
 */
export function convertInteractive(content: unknown): Conversion {
  const card = asObject(content) ?? null;
  const lines: string[] = [];
  if (card) visit(card, lines);
  const unique = [...new Set(lines.map((l) => l.trim()).filter((l) => l !== ""))];
  return {
    content: { kind: "interactive", card, card_version: cardVersion(card) },
    text: unique.length > 0 ? unique.join("\n") : EMPTY_CARD,
    resources: [],
  };
}

function cardVersion(card: JsonObject | null): "v1" | "v2" | "unknown" {
  if (!card) return "unknown";
  if (card.schema === "2.0" || asObject(card.body)) return "v2";
  if ("elements" in card || "header" in card || "i18n_elements" in card || "config" in card) {
    return "v1";
  }
  return "unknown";
}

function visit(node: unknown, out: string[]): void {
  if (typeof node === "string") {
    out.push(node);
    return;
  }
  if (Array.isArray(node)) {
    for (const child of node) visit(child, out);
    return;
  }
  const obj = asObject(node);
  if (!obj) return;
  if (typeof obj.tag === "string" && TEXT_TAGS.has(obj.tag)) {
    const shown = shownText(obj);
    if (shown !== undefined) {
      out.push(shown);
      return;
    }
  }
  const control = controlLine(obj);
  if (control !== undefined) {
    out.push(control);
    return;
  }
  for (const key of NESTED_KEYS) {
    const i18nKey = I18N_KEYS[key];
    const child = obj[key] ?? (i18nKey ? oneLocale(obj[i18nKey]) : undefined);
    if (typeof child === "string" && !isShownString(key)) continue;
    if (key === "options") {
      for (const opt of asArray(child)) {
        visit(typeof opt === "string" ? opt : asObject(opt)?.text, out);
      }
      continue;
    }
    visit(child, out);
  }
}

/** One locale's value of a locale-keyed object: zh_cn, en_us, ja_jp, else the first. */
function oneLocale(value: unknown): unknown {
  const obj = asObject(value);
  if (!obj) return undefined;
  const locale = localesOf(obj)[0];
  return locale === undefined ? undefined : obj[locale];
}

/** Bare strings count as shown text only under these keys. */
function isShownString(key: string): boolean {
  return key === "title" || key === "text" || key === "content" || key === "subtitle";
}
