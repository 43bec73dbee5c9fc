/**
 * The few inline HTML tags Feishu's markdown understands — `<at id=…>`,
 * `<font color=…>`, `<br>` — turned into safe page markup. Every other tag is
 * shown as escaped text, never injected.
 * @module
 */

import { escapeHtml } from "./_html.ts";

/** A parsed opening or closing tag of the supported set. */
export interface FeishuTag {
  name: "at" | "font" | "br";
  closing: boolean;
  /** The tag closes itself (`<br/>`, `<at id=x/>`). */
  selfClosing: boolean;
  attrs: Record<string, string>;
}

const TAG =
  /^<(\/?)(at|font|br)\b((?:\s+[a-z_]+\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>/]+))*)\s*(\/?)>$/i;
const ATTR = /([a-z_]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>/]+))/gi;

/**
 * Parses one inline HTML node as a supported Feishu tag, else undefined.
 *
 * @example
 * ```ts
 * import { parseFeishuTag } from "./_md_html.ts";
 * const t = parseFeishuTag(`<at id="ou_1">`);
 * if (t?.name !== "at" || t.attrs.id !== "ou_1" || t.closing) throw new Error();
 * if (parseFeishuTag("<script>") !== undefined) throw new Error();
 * if (parseFeishuTag("</font>")?.closing !== true) throw new Error();
 * ```
 */
export function parseFeishuTag(html: string): FeishuTag | undefined {
  const m = TAG.exec(html.trim());
  if (!m) return undefined;
  const attrs: Record<string, string> = {};
  for (const a of (m[3] ?? "").matchAll(ATTR)) {
    attrs[(a[1] ?? "").toLowerCase()] = a[2] ?? a[3] ?? a[4] ?? "";
  }
  return {
    name: (m[2] ?? "").toLowerCase() as FeishuTag["name"],
    closing: m[1] === "/",
    selfClosing: m[4] === "/",
    attrs,
  };
}

/**
 * The id an `<at>` tag names (`id`, `user_id`, `open_id` or `email`).
 *
 * @example
 * ```ts
 * import { atTarget, parseFeishuTag } from "./_md_html.ts";
 * const tag = parseFeishuTag("<at user_id='ou_1'>");
 * if (!tag || atTarget(tag) !== "ou_1") throw new Error();
 * ```
 */
export function atTarget(tag: FeishuTag): string {
  const a = tag.attrs;
  return a.id ?? a.user_id ?? a.open_id ?? a.email ?? "";
}

/**
 * A mention chip. `all` is Feishu's "everyone".
 *
 * @example
 * ```ts
 * import { mentionChip } from "./_md_html.ts";
 * if (mentionChip("<Al>") !== '<span class="mention">@&lt;Al&gt;</span>') throw new Error();
 * ```
 */
export function mentionChip(name: string): string {
  return `<span class="mention">@${escapeHtml(name)}</span>`;
}

const FONT_COLOURS = new Set([
  "red",
  "green",
  "blue",
  "grey",
  "gray",
  "orange",
  "yellow",
  "purple",
  "violet",
  "indigo",
  "wathet",
  "turquoise",
  "carmine",
]);

/**
 * The CSS class for a `<font color=…>`, or undefined for colours the page
 * does not know (the text then keeps the default colour).
 *
 * @example
 * ```ts
 * import { fontClass } from "./_md_html.ts";
 * if (fontClass("Red") !== "font-red" || fontClass("#f00;x") !== undefined) throw new Error();
 * ```
 */
export function fontClass(colour: string | undefined): string | undefined {
  const c = (colour ?? "").toLowerCase();
  return FONT_COLOURS.has(c) ? `font-${c === "gray" ? "grey" : c}` : undefined;
}
