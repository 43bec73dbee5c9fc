/**
 * The published tool definition alone (JSON schema + descriptions, no zod),
 * so answering `tools/list` needs nothing heavy.
 * @module
 */

import { TOOL_DESCRIPTION } from "./descriptions.ts";
import { type FeishuInputSchema, feishuInputSchema } from "./schema.ts";

/** Which shape of the schema a client is shown. */
export type ToolProjection = "ltp" | "portable";

/** The tool as `tools/list` shows it. */
export interface FeishuTool {
  name: "feishu";
  description: string;
  inputSchema: FeishuInputSchema;
}

/**
 * The `feishu` tool definition.
 *
 * @example
 * ```ts
 * import { feishuTool } from "./tool.ts";
 * if (feishuTool().name !== "feishu") throw new Error();
 * ```
 */
export function feishuTool(_projection: ToolProjection = "ltp"): FeishuTool {
  return { name: "feishu", description: TOOL_DESCRIPTION, inputSchema: feishuInputSchema() };
}
