/**
 * The product's only import of the MCP server SDK (v2, which serves both the
 * 2026-07-28 revision and the `initialize` era from one factory).
 * @module
 */

export { ProtocolError, ProtocolErrorCode, Server } from "@modelcontextprotocol/server";
export type {
  ServerContext,
  StandardSchemaV1,
  Tool,
  Transport,
} from "@modelcontextprotocol/server";
export { serveStdio, StdioServerTransport } from "@modelcontextprotocol/server/stdio";
