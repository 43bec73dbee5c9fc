/**
 * `system` messages (member joined, chat renamed, …): the template with its
 * `{placeholders}` filled from the content's own fields.
 * @module
 */

import { asArray, asObject, asText } from "../_json.ts";
import type { Conversion } from "../types.ts";

/**
 * Converts a system message; arrays fill placeholders joined by `, `, unknown
 * placeholders are left as written.
 *
 * @example
 * ```ts
 * import { convertSystem } from "./system.ts";
 * import assert from "node:assert/strict";
 * const c = convertSystem({ template: "{from_user} invited {to_chatters}", from_user: ["Ann"], to_chatters: ["Bo", "Cy"] });
 * assert.equal(c.text, "Ann invited Bo, Cy");
 * assert.equal(convertSystem({}).text, "[system message]");
 * ```
 */
export function convertSystem(content: unknown): Conversion {
  const c = asObject(content) ?? {};
  const template = asText(c.template);
  const names = (v: unknown) => asArray(v).map((x) => asText(x)).filter((x): x is string => !!x);
  const filled = template?.replace(/\{([a-z_]+)\}/g, (whole, field: string) => {
    const value = c[field];
    if (Array.isArray(value)) return names(value).join(", ");
    if (typeof value === "string") return value;
    return value == null ? "" : whole;
  }).trim();
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
