/**
 * The MCP edge: the server (one tool, resources, push notifications), stdio
 * serving, and the strict `feishu` tool family. The only folder that imports
 * `@modelcontextprotocol/sdk`.
 * @module
 */

export type { McpApp, ResourceEntry } from "./server.ts";
export { validateToolCall } from "./family/mod.ts";
