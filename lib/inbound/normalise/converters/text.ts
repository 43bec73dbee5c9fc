/**
 * `text`: the text with `@_user_N` placeholders, resolved later.
 * @module
 */

import { asObject } from "../_json.ts";
import type { Conversion } from "../types.ts";

/**
 * Converts `{"text": …}`.
 *
 * @example
 * ```ts
 * import { convertText } from "./text.ts";
 * import assert from "node:assert/strict";
 * assert.equal(convertText({ text: "hi" }).text, "hi");
 * assert.equal(convertText(undefined).text, "");
 * ```
 */
export function convertText(content: unknown): Conversion {
  const raw = asObject(content)?.text;
  const text = typeof raw === "string" ? raw : "";
  return { content: { kind: "text", text }, text, resources: [] };
}
