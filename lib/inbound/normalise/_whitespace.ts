/**
 * The whitespace rule of the record `text`: runs of spaces and
 * tabs inside a line collapse to one space, line ends lose trailing blanks,
 * newlines stay, the whole is trimmed. Leading indentation and the inside of
 * fenced code blocks are kept as written.
 * @module
 */

const FENCE = /^\s*(```|~~~)/;

/**
 * Applies the rule above.
 *
 * @example
 * ```ts
 * import { tidyBodyText } from "./_whitespace.ts";
 * import assert from "node:assert/strict";
 * assert.equal(tidyBodyText("  a   b \n  c\t\td  "), "a b\n  c d");
 * assert.equal(tidyBodyText("~~~\nx    y\n~~~"), "~~~\nx    y\n~~~");
 * ```
 */
export function tidyBodyText(text: string): string {
  let inFence = false;
  const lines = text.split("\n").map((line) => {
    if (FENCE.test(line)) {
      inFence = !inFence;
      return line.trimEnd();
    }
    if (inFence) return line;
    const indent = line.match(/^[ \t]*/)?.[0] ?? "";
    return indent + line.slice(indent.length).replace(/[ \t]+/g, " ").trimEnd();
  });
  return lines.join("\n").trim();
}
