/**
 * A cheap, linear pre-scan of markdown nesting, run before any parse. The
 * parser's cost grows with how deeply lists and quotes nest, and a message
 * of a few kilobytes nested thousands of levels deep takes seconds to parse;
 * such input is refused up front with a `FORMAT_ERROR` that names the budget.
 *
 * The scan is an over-estimate, never a parse: per line (outside fenced code)
 * it counts the container markers at its start (`>`, `-`, `*`, `+`, `1.`,
 * `1)`) plus one level per two columns of indentation before a list marker;
 * per paragraph it counts unclosed `[` brackets. It visits every character
 * once and allocates nothing per line.
 * @module
 */

import { BridgeError } from "../../core/mod.ts";

/** The deepest nesting of lists, quotes or brackets outbound markdown may have. */
export const MAX_MARKDOWN_NESTING = 32;

/** Where the scan found the deepest nesting. */
export interface NestingFound {
  depth: number;
  /** 1-based line of the deepest point. */
  line: number;
}

/**
 * The deepest nesting of `md`, stopping early once it exceeds `stopAbove`.
 *
 * @example
 * ```ts
 * import { markdownNesting } from "./nesting.ts";
 * if (markdownNesting("- a\n  - b\n    - c").depth !== 3) throw new Error();
 * if (markdownNesting("> > > x").depth !== 3) throw new Error();
 * if (markdownNesting("[[[x]]]").depth !== 3) throw new Error();
 * if (markdownNesting("~~~\n- - - - -\n~~~").depth !== 0) throw new Error();
 * ```
 */
export function markdownNesting(md: string, stopAbove = Infinity): NestingFound {
  const n = md.length;
  let best: NestingFound = { depth: 0, line: 0 };
  let line = 0;
  let brackets = 0;
  let fence = "";
  let i = 0;
  while (i < n) {
    line++;
    const end = lineEnd(md, i);
    // Container markers at the start of the line.
    let j = i;
    let depth = 0;
    let indent = 0;
    for (;;) {
      let k = j;
      let cols = 0;
      while (k < end && (md[k] === " " || md[k] === "\t")) {
        cols += md[k] === "\t" ? 4 : 1;
        k++;
      }
      const marker = markerLength(md, k, end);
      if (marker === 0) break;
      if (md[k] !== ">") indent += cols;
      depth++;
      j = k + marker;
      if (depth > stopAbove) break;
    }
    const blank = isBlank(md, j, end);
    const fenceMark = fenceMarker(md, j, end);
    if (fence !== "") {
      if (fenceMark !== "" && fenceMark[0] === fence[0] && fenceMark.length >= fence.length) {
        fence = "";
      }
    } else if (fenceMark !== "") {
      fence = fenceMark;
    } else {
      const level = depth + (depth > 0 ? Math.floor(indent / 2) : 0);
      if (level > best.depth) best = { depth: level, line };
      if (blank) brackets = 0;
      for (let k = j; k < end; k++) {
        const c = md[k];
        if (c === "\\") k++;
        else if (c === "[") {
          brackets++;
          if (brackets > best.depth) best = { depth: brackets, line };
        } else if (c === "]" && brackets > 0) brackets--;
      }
    }
    if (best.depth > stopAbove) return best;
    i = end + 1;
  }
  return best;
}

/**
 * Throws a `FORMAT_ERROR` naming the budget when `md` nests deeper than
 * {@link MAX_MARKDOWN_NESTING}.
 *
 * @example
 * ```ts
 * import { assertMarkdownNesting } from "./nesting.ts";
 * assertMarkdownNesting("- fine");
 * let threw = false;
 * try { assertMarkdownNesting("- ".repeat(100) + "x"); } catch { threw = true; }
 * if (!threw) throw new Error();
 * ```
 */
export function assertMarkdownNesting(md: string, what = "markdown"): void {
  const found = markdownNesting(md, MAX_MARKDOWN_NESTING);
  if (found.depth <= MAX_MARKDOWN_NESTING) return;
  throw new BridgeError(
    "FORMAT_ERROR",
    `Expected ${what} nested at most ${MAX_MARKDOWN_NESTING} levels deep (lists, quotes, ` +
      `brackets) but found more than ${MAX_MARKDOWN_NESTING} at line ${found.line}; ` +
      `flatten the structure`,
  );
}

function lineEnd(s: string, from: number): number {
  const e = s.indexOf("\n", from);
  return e === -1 ? s.length : e;
}

function isBlank(s: string, from: number, end: number): boolean {
  for (let k = from; k < end; k++) {
    const c = s[k];
    if (c !== " " && c !== "\t" && c !== "\r") return false;
  }
  return true;
}

/** Length of a container marker (with its one following space) at `k`, else 0. */
function markerLength(s: string, k: number, end: number): number {
  if (k >= end) return 0;
  const c = s[k];
  if (c === ">") return s[k + 1] === " " ? 2 : 1;
  const spaced = (at: number) => at >= end || s[at] === " " || s[at] === "\t";
  if (c === "-" || c === "*" || c === "+") return spaced(k + 1) ? Math.min(2, end - k) : 0;
  let d = k;
  while (d < end && d - k < 9 && s.charCodeAt(d) >= 48 && s.charCodeAt(d) <= 57) d++;
  if (d === k || d >= end || (s[d] !== "." && s[d] !== ")")) return 0;
  return spaced(d + 1) ? Math.min(d + 2, end) - k : 0;
}

/** "```" or "~~~" (as long as written) when the line opens or closes a fence, else "". */
function fenceMarker(s: string, from: number, end: number): string {
  let k = from;
  while (k < end && k - from < 3 && s[k] === " ") k++;
  const c = s[k];
  if (c !== "`" && c !== "~") return "";
  let m = k;
  while (m < end && s[m] === c) m++;
  return m - k >= 3 ? s.slice(k, m) : "";
}
