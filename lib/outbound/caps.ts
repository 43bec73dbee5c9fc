/**
 * The per-call cap on outbound text: the text, markdown or caption of one
 * `send`, `reply` or `edit` may hold at most `limits.outbound_text_code_points`
 * code points. It is checked on the raw input, before any normalisation,
 * chunking or materialisation, so a huge text costs neither work nor messages.
 * @module
 */

import { BridgeError } from "../core/mod.ts";

/** What the cap check reads of a call's input. */
export interface CappedInput {
  text?: string;
  content?: unknown;
}

/** Code points of `s`, counted without building an array. */
function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** The strings of an input that become message text. */
function texts(input: CappedInput): string[] {
  const out: string[] = [];
  if (typeof input.text === "string") out.push(input.text);
  const c = input.content as Record<string, unknown> | undefined;
  if (c && typeof c === "object") {
    for (const k of ["text", "markdown", "caption"]) {
      const v = c[k];
      if (typeof v === "string") out.push(v);
    }
  }
  return out;
}

/**
 * Throws `FORMAT_ERROR` when the text of one call is longer than `max` code
 * points; the message names the cap, its config key and suggests a file.
 *
 * @example
 * ```ts
 * import { checkOutboundTextCap } from "./caps.ts";
 * checkOutboundTextCap({ text: "hello" }, 5);
 * let code = "";
 * try {
 *   checkOutboundTextCap({ content: { type: "markdown", markdown: "123456" } }, 5);
 * } catch (e) {
 *   code = (e as { code: string }).code;
 * }
 * if (code !== "FORMAT_ERROR") throw new Error(code);
 * ```
 */
export function checkOutboundTextCap(input: CappedInput, max: number): void {
  let total = 0;
  for (const s of texts(input)) total += codePoints(s);
  if (total <= max) return;
  throw new BridgeError(
    "FORMAT_ERROR",
    `Expected at most ${max} code points of text per call (limits.outbound_text_code_points) ` +
      `but found ${total}; send a text this long as a file (content type "file") instead`,
    { retryable: false },
  );
}
