/**
 * The MCP edge: the server (one tool, resources, push notifications), stdio
 * serving, and the strict `feishu` tool family. The only folder that imports
 * `@modelcontextprotocol/sdk`.
 * @module
 */

export * from "./server.ts";
export * from "./stdio.ts";
export * from "./family/mod.ts";
