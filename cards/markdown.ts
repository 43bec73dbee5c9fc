/**
 * Plain text inside a card's markdown element. Text that comes from the
 * agent's events log or from files must show as what it says: no mention
 * (`<at id=all></at>`), no link (`[x](url)`), no image (`![x](key)`), no
 * HTML or Feishu tag (`<font color=red>`, `<link>`), no emphasis, heading,
 * list, quote, table or code block. Every character that could start one
 * becomes an HTML character reference (`&lt;`, `&#91;` …), which Feishu's
 * card markdown (it documents them for showing special characters) and
 * CommonMark both decode as plain text, never as markup. Backslash escapes
 * are not used: Feishu shows the backslash in some markdown surfaces.
 * A bare URL stays as it is (a client may still make it clickable; its text
 * is then the address itself, never a disguise).
 * @module
 */

const INLINE: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  "[": "&#91;",
  "]": "&#93;",
  "*": "&#42;",
  "_": "&#95;",
  "~": "&#126;",
  "`": "&#96;",
  "\\": "&#92;",
  "|": "&#124;",
};
const INLINE_RE = /[&<>[\]*_~`\\|]/g;

/** Markers that only mean something at the start of a line (after its indentation). */
const LINE_START = /^(?:#|[-+=]|\d{1,9}[.)])/;

function escapeLine(line: string): string {
  const lead = /^[ \t]*/.exec(line)?.[0] ?? "";
  let body = line.slice(lead.length);
  let marker = "";
  const m = LINE_START.exec(body)?.[0];
  if (m !== undefined) {
    // The marker's last character is what makes it one (`#`, `-`, the `.` of `1.`).
    marker = m.slice(0, -1) + `&#${m.charCodeAt(m.length - 1)};`;
    body = body.slice(m.length);
  }
  // Leading spaces and tabs would make an indented code block: kept visible, not structural.
  const indent = lead.replaceAll(" ", "&#160;").replaceAll("\t", "&#160;".repeat(4));
  return indent + marker + body.replace(INLINE_RE, (c) => INLINE[c]!);
}

/**
 * `text` escaped so a Feishu schema-2.0 markdown element shows it verbatim.
 * Line breaks are kept (Feishu breaks the line at each `\n`).
 *
 * @example
 * ```ts
 * import { escapeMarkdown } from "./markdown.ts";
 * if (escapeMarkdown("<at id=all></at>") !== "&lt;at id=all&gt;&lt;/at&gt;") throw new Error();
 * if (escapeMarkdown("[x](https://e.com) **b**") !== "&#91;x&#93;(https://e.com) &#42;&#42;b&#42;&#42;") {
 *   throw new Error();
 * }
 * if (escapeMarkdown("# title\n- item\n1. one") !== "&#35; title\n&#45; item\n1&#46; one") {
 *   throw new Error();
 * }
 * ```
 */
export function escapeMarkdown(text: string): string {
  if (typeof text !== "string" || text === "") return "";
  return text.split("\n").map(escapeLine).join("\n");
}

/**
 * `text` cut to at most `max` code points without leaving half a character
 * reference at the end (an escaped text cut at a code point might).
 *
 * @example
 * ```ts
 * import { cutEscaped } from "./markdown.ts";
 * if (cutEscaped("ab&#91;c", 4) !== "ab") throw new Error();
 * if (cutEscaped("ab&#91;c", 7) !== "ab&#91;") throw new Error();
 * ```
 */
export function cutEscaped(text: string, max: number): string {
  const cps = Array.from(text);
  if (cps.length <= max) return text;
  return cps.slice(0, Math.max(0, max)).join("").replace(/&#?[A-Za-z0-9]{0,8}$/, "");
}
