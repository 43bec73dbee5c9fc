/**
 * The strict `feishu` tool family: the one tool the MCP server lists, its
 * published JSON Schema, the zod schemas and types of every action input, and
 * the validation boundary every `tools/call` passes before any action runs.
 *
 * Sits between the MCP server (`lib/mcp/`) and the actions: the server lists
 * {@link feishuTool}, hands the raw arguments to {@link validateToolCall}, and
 * dispatches the returned call (action + input only) or returns the failure.
 * Pure: no SDK imports, no I/O.
 * @module
 */

import { TOOL_DESCRIPTION } from "./descriptions.ts";
import { type FeishuInputSchema, feishuInputSchema } from "./schema.ts";

export * from "./actions.ts";
export * from "./descriptions.ts";
export * from "./schema.ts";
export * from "./inputs.ts";
export * from "./validate.ts";

/** The tool as `tools/list` shows it. */
export interface FeishuTool {
  name: "feishu";
  description: string;
  inputSchema: FeishuInputSchema;
}

/**
 * The one tool the server publishes. Each call builds a fresh object.
 *
 * @example
 * ```ts
 * import { feishuTool } from "./mod.ts";
 * import assert from "node:assert/strict";
 * const tool = feishuTool();
 * assert.equal(tool.name, "feishu");
 * assert.equal(tool.inputSchema.additionalProperties, false);
 * ```
 */
export function feishuTool(): FeishuTool {
  return { name: "feishu", description: TOOL_DESCRIPTION, inputSchema: feishuInputSchema() };
}
