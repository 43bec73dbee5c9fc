/**
 * The nesting depth of a content JSON string, read without parsing and
 * without recursion: a message nested thousands of levels deep would
 * overflow the stack in the recursive steps after the parse (converters,
 * JSON encoding of the record), on every attempt.
 * @module
 */

/** The deepest message content normalisation walks (objects and arrays). */
export const MAX_CONTENT_DEPTH = 64;

/**
 * How deeply the JSON text nests (`[`/`{` outside strings), stopping early
 * once it exceeds `stopAbove`. Linear in the text; any depth is safe.
 *
 * @example
 * ```ts
 * import { jsonTextDepth } from "./_depth.ts";
 * if (jsonTextDepth('{"a":[{"b":"[[["}]}') !== 3) throw new Error();
 * ```
 */
export function jsonTextDepth(text: string, stopAbove = Infinity): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \\ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > max) {
        max = depth;
        if (max > stopAbove) return max;
      }
    } else if (c === 93 /* ] */ || c === 125 /* } */) depth--;
  }
  return max;
}

/** Why a content is too deep to read, or undefined when it is within the budget. */
export function contentTooDeep(content: string): string | undefined {
  return jsonTextDepth(content, MAX_CONTENT_DEPTH) > MAX_CONTENT_DEPTH
    ? `content nested deeper than ${MAX_CONTENT_DEPTH} levels`
    : undefined;
}
