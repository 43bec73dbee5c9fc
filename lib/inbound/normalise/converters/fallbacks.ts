/**
 * The two placeholder families: `merge_forward` (never expanded here) and the
 * unknown converter every other type, and every failing converter, ends in.
 * @module
 */

import { asObject } from "../_json.ts";
import type { Conversion } from "../types.ts";

/**
 * `merge_forward`: a placeholder; the forwarded messages are not fetched.
 *
 * @example
 * ```ts
 * import { convertMergeForward } from "./fallbacks.ts";
 * if (convertMergeForward().text !== "<forwarded_messages/>") throw new Error();
 * ```
 */
export function convertMergeForward(): Conversion {
  return {
    content: { kind: "merge_forward", loading: false, items: [], truncated: false, error: null },
    text: "<forwarded_messages/>",
    resources: [],
  };
}

/**
 * The fallback: the content's `text` when it has one, else
 * `[unsupported message]`.
 *
 * @example
 * ```ts
 * import { convertUnknown } from "./fallbacks.ts";
 * import assert from "node:assert/strict";
 * assert.equal(convertUnknown("future_type", { text: "hi" }).text, "hi");
 * assert.deepEqual(convertUnknown("future_type", undefined).content, { kind: "unknown", message_type: "future_type" });
 * ```
 */
export function convertUnknown(messageType: string, content: unknown): Conversion {
  const text = asObject(content)?.text;
  return {
    content: { kind: "unknown", message_type: messageType },
    text: typeof text === "string" && text.trim() !== "" ? text : "[unsupported message]",
    resources: [],
  };
}
