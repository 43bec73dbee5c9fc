/**
 * The MCP edge: the server (one tool, resources, push notifications), stdio
 * serving, and the strict `feishu` tool family. The only folder that imports
 * `@modelcontextprotocol/sdk`.
 * @module
 */

export { createMcpServer, type McpApp, type ResourceEntry } from "./server.ts";
export { serveStdio } from "./stdio.ts";
export { FEISHU_ACTIONS, validateToolCall } from "./family/mod.ts";
