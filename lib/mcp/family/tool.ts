/**
 * The published tool definition alone (JSON schema + descriptions, no zod),
 * so answering `tools/list` needs nothing heavy. One tool, two projections
 * of its input schema: `ltp` (the exact schema LingTai's host adapters
 * consume) and `portable` (one flat closed object most other clients take).
 * @module
 */

import { TOOL_DESCRIPTION } from "./descriptions.ts";
import { type PortableInputSchema, portableInputSchema } from "./portable.ts";
import { type FeishuInputSchema, feishuInputSchema } from "./schema.ts";

/** The projections of the input schema, the default first. */
export const TOOL_PROJECTIONS = ["ltp", "portable"] as const;

/** One of {@link TOOL_PROJECTIONS}. */
export type ToolProjection = typeof TOOL_PROJECTIONS[number];

/** The tool as `tools/list` shows it. */
export interface FeishuTool<
  S extends FeishuInputSchema | PortableInputSchema = FeishuInputSchema | PortableInputSchema,
> {
  name: "feishu";
  description: string;
  inputSchema: S;
}

/**
 * The `feishu` tool definition in one projection (`ltp` when not given).
 * The description is the same in both; only the input schema differs.
 *
 * @example
 * ```ts
 * import { feishuTool } from "./tool.ts";
 * import assert from "node:assert/strict";
 * assert.equal(feishuTool().name, "feishu");
 * assert.equal(feishuTool("ltp").inputSchema.allOf.length, 13);
 * assert.equal("allOf" in feishuTool("portable").inputSchema, false);
 * ```
 */
export function feishuTool(projection?: "ltp"): FeishuTool<FeishuInputSchema>;
export function feishuTool(projection: "portable"): FeishuTool<PortableInputSchema>;
export function feishuTool(projection: ToolProjection): FeishuTool;
export function feishuTool(projection: ToolProjection = "ltp"): FeishuTool {
  const inputSchema = projection === "portable" ? portableInputSchema() : feishuInputSchema();
  return { name: "feishu", description: TOOL_DESCRIPTION, inputSchema };
}
