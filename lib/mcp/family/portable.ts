/**
 * The `portable` projection of the `feishu` tool's input schema, for clients
 * that cannot take the `ltp` one (root combinators, `if/then`, `not`,
 * `const`, unions whose branches require different keys): one closed root
 * and one flat closed `input` object whose properties are the union of the
 * thirteen action inputs, none required, each saying which actions take it.
 * Derived from the `ltp` branches, so the two cannot drift apart; the server
 * validates every call just as strictly whichever projection it published.
 * @module
 */

import { FEISHU_ACTIONS } from "./actions.ts";
import { flattenBranches, type Level } from "./_flatten.ts";
import { PORTABLE_HINTS, PORTABLE_ROOT_DESCRIPTIONS as ROOT } from "./descriptions.ts";
import { actionInputSchema, type ToolRootSchema } from "./schema.ts";

/** The shape of the `portable` input schema: the closed root, no combinators. */
export type PortableInputSchema = ToolRootSchema;

const byType = (labels: readonly string[]) => `when type is ${labels.join(", ")}`;
const SOURCE_LEVEL: Level = { scope: byType, hints: PORTABLE_HINTS.source, nested: {} };
const CONTENT_LEVEL: Level = {
  scope: byType,
  hints: PORTABLE_HINTS.content,
  nested: { source: SOURCE_LEVEL },
};
const INPUT_LEVEL: Level = {
  scope: (labels) => `for ${labels.join(", ")}`,
  hints: PORTABLE_HINTS.input,
  nested: { content: CONTENT_LEVEL },
};

/**
 * The `portable` input schema. Each call builds a fresh object.
 *
 * @example
 * ```ts
 * import { portableInputSchema } from "./portable.ts";
 * import assert from "node:assert/strict";
 * const s = portableInputSchema();
 * assert.equal("allOf" in s || "anyOf" in s || "oneOf" in s, false);
 * const input = s.properties.input.properties as Record<string, { description: string }>;
 * assert.equal(
 *   input.chat_id!.description,
 *   "Required for read; optional for search, add_contact.",
 * );
 * ```
 */
export function portableInputSchema(): PortableInputSchema {
  const input = flattenBranches(
    FEISHU_ACTIONS.map((label) => ({ label, schema: actionInputSchema(label) })),
    INPUT_LEVEL,
  );
  return {
    type: "object",
    properties: {
      action: { type: "string", enum: [...FEISHU_ACTIONS], description: ROOT.action },
      input: { type: "object", description: ROOT.input, ...input },
      reasoning: { type: "string", description: ROOT.reasoning },
      summarize: { type: "boolean", description: ROOT.summarize },
    },
    required: ["action", "input", "reasoning"],
    additionalProperties: false,
  };
}
