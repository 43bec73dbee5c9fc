/**
 * Card languages: the three tables (control cards and the Task Card) and
 * how an agent's configured language picks one.
 * @module
 */

import { EN } from "./en.ts";
import type { Messages } from "./keys.ts";
import { WEN } from "./wen.ts";
import { ZH } from "./zh.ts";

export type { DescribedCommand, MessageKey, Messages, TaskKey } from "./keys.ts";
export { COMMAND_NAMES, LAYER_KEYS, TASK_KEYS } from "./keys.ts";

/** A supported card language. */
export type Lang = "en" | "zh" | "wen";

/** The table of each language. */
export const TABLES: Readonly<Record<Lang, Messages>> = { en: EN, zh: ZH, wen: WEN };

/**
 * Maps a configured language to a supported one: case and `_`/`-` are
 * ignored; `wen` and `wen-…` give classical Chinese, `zh` and `zh-…` give
 * Chinese, anything else (missing, unknown, non-string) gives English.
 *
 * @example
 * ```ts
 * import { normalizeLanguage } from "./mod.ts";
 * if (normalizeLanguage("zh_CN") !== "zh" || normalizeLanguage("fr") !== "en") throw new Error();
 * ```
 */
export function normalizeLanguage(value: unknown): Lang {
  if (typeof value !== "string") return "en";
  const v = value.trim().toLowerCase().replaceAll("_", "-");
  if (v === "wen" || v.startsWith("wen-")) return "wen";
  if (v === "zh" || v.startsWith("zh-")) return "zh";
  return "en";
}

/** The table for a configured language (see {@link normalizeLanguage}). */
export function messagesFor(language: unknown): Messages {
  return TABLES[normalizeLanguage(language)];
}

/**
 * A table text with its `{placeholders}` filled in (unknown ones stay as written).
 *
 * @example
 * ```ts
 * import { fill } from "./mod.ts";
 * if (fill("{n} steps in {where}", { n: 3 }) !== "3 steps in {where}") throw new Error();
 * ```
 */
export function fill(template: string, values: Readonly<Record<string, string | number>>): string {
  return template.replace(
    /\{([a-z_]+)\}/g,
    (all, key: string) => Object.hasOwn(values, key) ? String(values[key]) : all,
  );
}
