/**
 * `system` messages (member joined, chat renamed, a session divider, …): the
 * template with its `{placeholders}` filled from the content's own fields.
 * @module
 */

import { asObject, asText } from "../_json.ts";
import { visibleText } from "../_visible.ts";
import type { Conversion } from "../types.ts";

/**
 * Converts a system message. Every placeholder is filled with the visible
 * text of its field, whatever JSON type it is (arrays joined by `, `, objects
 * by their text or locale text); a placeholder without a field reads as "".
 *
 * @example
 * ```ts
 * import { convertSystem } from "./system.ts";
 * import assert from "node:assert/strict";
 * const c = convertSystem({ template: "{from_user} invited {to_chatters}", from_user: ["Ann"], to_chatters: ["Bo", "Cy"] });
 * assert.equal(c.text, "Ann invited Bo, Cy");
 * assert.equal(convertSystem({ template: "{d}", d: { text: "新会话" } }).text, "新会话");
 * assert.equal(convertSystem({}).text, "[system message]");
 * ```
 */
export function convertSystem(content: unknown): Conversion {
  const c = asObject(content) ?? {};
  const template = asText(c.template);
  const filled = template
    ?.replace(/\{([A-Za-z0-9_]+)\}/g, (_whole, field: string) => visibleText(c[field]))
    .trim();
  return {
    content: {
      kind: "system",
      ...(template ? { template } : {}),
      from_user: names(c.from_user),
      to_chatters: names(c.to_chatters),
    },
    text: filled || "[system message]",
    resources: [],
  };
}

/** The visible name of each member of a member list (a lone value counts as one). */
function names(value: unknown): string[] {
  const list = Array.isArray(value) ? value : value == null ? [] : [value];
  return list.map((x) => visibleText(x).trim()).filter((x) => x !== "");
}
