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

export * from "./actions.ts";
export * from "./descriptions.ts";
export * from "./schema.ts";
export * from "./inputs.ts";
export * from "./validate.ts";
export * from "./tool.ts";
export { CONTENT_TYPES, type ContentType, EDITABLE_CONTENT_TYPES } from "./_content_schema.ts";
