/**
 * The MCP client side, for the sandbox's demo agent (kept apart from the
 * server's import graph: the client pulls in cross-spawn, which reads the
 * environment at import time).
 * @module
 */

export { Client } from "@modelcontextprotocol/client";
export { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
