/**
 * HTML building blocks every renderer shares: escaping for text and
 * attributes, the link allowlist and resource URLs. Everything the page shows
 * passes through here, so raw HTML from a message can never reach the DOM.
 * @module
 */

const TEXT_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * Escapes text for use inside an element or a quoted attribute.
 *
 * @example
 * ```ts
 * import { escapeHtml } from "./_html.ts";
 * if (escapeHtml(`<a href="x">&'</a>`) !== "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;") {
 *   throw new Error();
 * }
 * ```
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => TEXT_ESCAPES[c] ?? c);
}

/**
 * Escaped text with each newline turned into `<br>`.
 *
 * @example
 * ```ts
 * import { escapeLines } from "./_html.ts";
 * if (escapeLines("a<\r\nb\nc") !== "a&lt;<br>b<br>c") throw new Error();
 * ```
 */
export function escapeLines(text: string): string {
  return escapeHtml(text).replace(/\r?\n/g, "<br>");
}

const SAFE_SCHEMES = new Set(["http:", "https:", "mailto:"]);

/**
 * What the URL parser ignores, removed: leading and trailing C0 controls and
 * spaces, and tabs and newlines anywhere. The href written is then the one
 * the browser follows.
 */
function urlText(url: string): string {
  let start = 0;
  let end = url.length;
  while (start < end && url.charCodeAt(start) <= 0x20) start++;
  while (end > start && url.charCodeAt(end - 1) <= 0x20) end--;
  return url.slice(start, end).replace(/[\t\n\r]/g, "");
}

/**
 * The URL if it is safe to put in an `href` (http, https, mailto), else
 * undefined. Relative and scheme-less URLs are refused too: a message has no
 * base the page could resolve them against.
 *
 * @example
 * ```ts
 * import { safeHref } from "./_html.ts";
 * if (safeHref("https://open.feishu.cn/x?a=1") !== "https://open.feishu.cn/x?a=1") throw new Error();
 * if (safeHref("javascript:alert(1)") !== undefined) throw new Error();
 * if (safeHref(" JAVASCRIPT:alert(1)") !== undefined) throw new Error();
 * if (safeHref("\u0000ht\ntps://a.example/") !== "https://a.example/") throw new Error();
 * ```
 */
export function safeHref(url: unknown): string | undefined {
  if (typeof url !== "string") return undefined;
  const trimmed = urlText(url.trim());
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    // Not an absolute URL: refused, the caller shows the text without a link.
    return undefined;
  }
  return SAFE_SCHEMES.has(parsed.protocol) ? trimmed : undefined;
}

/**
 * An external link: escaped, opened in a new tab, without a referrer.
 *
 * @example
 * ```ts
 * import { link } from "./_html.ts";
 * if (link("https://a.example/?q=<b>", "x") !== '<a href="https://a.example/?q=&lt;b&gt;" target="_blank" rel="noopener noreferrer">x</a>') throw new Error();
 * ```
 */
export function link(href: string, innerHtml: string): string {
  return `<a href="${escapeHtml(href)}" target="_blank" rel="noopener noreferrer">${innerHtml}</a>`;
}

/**
 * The control-plane URL that serves an uploaded image or file.
 *
 * @example
 * ```ts
 * import { resourceUrl } from "./_html.ts";
 * if (resourceUrl("img_v3/1") !== "/__emu/api/resource/img_v3%2F1") throw new Error();
 * ```
 */
export function resourceUrl(key: string): string {
  return `/__emu/api/resource/${encodeURIComponent(key)}`;
}

/** A plain object, not an array and not null. */
export type Obj = Record<string, unknown>;

/**
 * True for a plain object (not an array, not null).
 *
 * @example
 * ```ts
 * import { isObj } from "./_html.ts";
 * if (!isObj({}) || isObj([]) || isObj(null)) throw new Error();
 * ```
 */
export function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * The value if it is a string, else the fallback.
 *
 * @example
 * ```ts
 * import { str } from "./_html.ts";
 * if (str(3, "x") !== "x" || str("a") !== "a") throw new Error();
 * ```
 */
export function str(v: unknown, fallback = ""): string {
  return typeof v === "string" ? v : fallback;
}

/**
 * The value if it is an array, else an empty array.
 *
 * @example
 * ```ts
 * import { arr } from "./_html.ts";
 * if (arr("x").length !== 0 || arr([1]).length !== 1) throw new Error();
 * ```
 */
export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/**
 * A code block with its language label (markdown fences and post
 * `code_block` elements share it).
 *
 * @example
 * ```ts
 * import { codeBlock } from "./_html.ts";
 * const html = codeBlock("ts", "a < b");
 * if (html !== '<div class="code-block"><div class="code-lang">ts</div><pre><code>a &lt; b</code></pre></div>') {
 *   throw new Error(html);
 * }
 * ```
 */
export function codeBlock(lang: string, code: string): string {
  const l = lang.trim();
  const label = l ? `<div class="code-lang">${escapeHtml(l)}</div>` : "";
  return `<div class="code-block">${label}<pre><code>${escapeHtml(code)}</code></pre></div>`;
}
