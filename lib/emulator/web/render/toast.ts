/**
 * What a card toast shows: its type (success, info, warning or error;
 * anything else reads as info), the icon and label of that type, and its
 * text (`content`, else an i18n variant).
 * @module
 */

import type { PageToast } from "./types.ts";

/** A toast ready to draw. */
export interface ToastParts {
  type: "success" | "info" | "warning" | "error";
  /** A glyph for the type. */
  icon: string;
  /** The type as a word ("Success", …). */
  label: string;
  text: string;
}

const KINDS = {
  success: { icon: "✓", label: "Success" },
  info: { icon: "i", label: "Info" },
  warning: { icon: "!", label: "Warning" },
  error: { icon: "✕", label: "Error" },
} as const;

/**
 * The parts of a toast.
 *
 * @example
 * ```ts
 * import { toastParts } from "./toast.ts";
 * const t = toastParts({ type: "warning", i18n: { zh_cn: "注意", en_us: "Careful" } });
 * if (t.type !== "warning" || t.label !== "Warning" || t.text !== "Careful") throw new Error();
 * if (toastParts({ type: "odd" }).type !== "info") throw new Error();
 * ```
 */
export function toastParts(t: PageToast): ToastParts {
  const type = t.type === "success" || t.type === "warning" || t.type === "error" ? t.type : "info";
  const text = t.content ?? t.i18n?.en_us ?? t.i18n?.zh_cn ?? Object.values(t.i18n ?? {})[0] ?? "";
  return { type, ...KINDS[type], text };
}
