/**
 * The visible text of a JSON value whose shape Feishu does not fix (system
 * template variables, i18n fields of cards): what a person would read, never
 * ids, keys or links.
 * @module
 */

import { asObject } from "./_json.ts";

/** The locales read first, in this order, wherever a value is keyed by locale. */
const LOCALES = ["zh_cn", "en_us", "ja_jp"];

/** Fields tried first on an object, in this order. */
const TEXT_FIELDS = ["text", "content", "name", "title", "display_name", "user_name"];
/** Fields that hold a locale-keyed object of texts. */
const I18N_FIELDS = ["i18n_text", "i18n_content", "i18n", "i18n_name", "i18n_names", "i18n_title"];
/** Keys whose values are machine data, not shown text. */
const MACHINE_KEY = /(^|_)(id|ids|key|keys|url|urls|href|token|type|tag|style|color|icon)$/i;
/** Locale keys as Feishu writes them: `zh_cn`, `en_us`, `zh_hk`. */
const LOCALE_KEY = /^[a-z]{2}_[a-z]{2}$/;
/** Nesting followed at most; a deeper value reads as nothing. */
const MAX_DEPTH = 8;

/**
 * The text a person would read in `value`: a string as is, a number or
 * boolean as text, null as "", an array's texts joined by `, `, an object's
 * `text` (or similar), else its locale text, else its other visible strings.
 *
 * @example
 * ```ts
 * import { visibleText } from "./_visible.ts";
 * import assert from "node:assert/strict";
 * assert.equal(visibleText({ text: "新会话", i18n_text: { en_us: "New" } }), "新会话");
 * assert.equal(visibleText({ i18n_text: { en_us: "New" } }), "New");
 * assert.equal(visibleText([{ name: "Ann", open_id: "ou_1" }, 2, null]), "Ann, 2");
 * ```
 */
export function visibleText(value: unknown, depth = 0): string {
  if (typeof value === "string") return value;
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  if (typeof value === "boolean") return String(value);
  if (depth >= MAX_DEPTH) return "";
  if (Array.isArray(value)) return joined(value.map((v) => visibleText(v, depth + 1)), ", ");
  const obj = asObject(value);
  if (!obj) return "";
  for (const field of TEXT_FIELDS) {
    const shown = visibleText(obj[field], depth + 1).trim();
    if (shown) return shown;
  }
  const localised = localeText(obj);
  if (localised) return localised;
  const rest = Object.entries(obj)
    .filter(([k]) => !MACHINE_KEY.test(k) && !k.startsWith("i18n") && !LOCALE_KEY.test(k))
    .map(([, v]) => visibleText(v, depth + 1));
  return joined(rest, " ");
}

/**
 * The text of a locale-keyed value (`{zh_cn: "…", en_us: "…"}`), either the
 * object itself or one of its i18n fields: the first of {@link LOCALES}, else
 * the first locale given. Undefined when there is none.
 *
 * @example
 * ```ts
 * import { localeText } from "./_visible.ts";
 * import assert from "node:assert/strict";
 * assert.equal(localeText({ i18n: { en_us: "Go", zh_cn: "走" } }), "走");
 * assert.equal(localeText({ fr_fr: "Allez" }), "Allez");
 * assert.equal(localeText({ tag: "plain_text" }), undefined);
 * ```
 */
export function localeText(obj: Record<string, unknown>): string | undefined {
  for (const candidate of [obj, ...I18N_FIELDS.map((f) => asObject(obj[f]))]) {
    if (!candidate) continue;
    for (const locale of localesOf(candidate)) {
      const v = candidate[locale];
      if (typeof v === "string" && v.trim() !== "") return v;
    }
  }
  return undefined;
}

/**
 * The locale keys of `obj` in reading order: zh_cn, en_us, ja_jp, then the
 * others as given.
 *
 * @example
 * ```ts
 * import { localesOf } from "./_visible.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(localesOf({ fr_fr: 1, en_us: 2, title: 3 }), ["en_us", "fr_fr"]);
 * ```
 */
export function localesOf(obj: Record<string, unknown>): string[] {
  const keys = Object.keys(obj).filter((k) => LOCALE_KEY.test(k));
  return [...new Set([...LOCALES.filter((l) => keys.includes(l)), ...keys])];
}

function joined(parts: string[], sep: string): string {
  return parts.map((p) => p.trim()).filter((p) => p !== "").join(sep);
}
