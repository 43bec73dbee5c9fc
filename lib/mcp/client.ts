/**
 * The MCP client side, for the sandbox's demo agent (kept apart from the
 * server's import graph: the client pulls in cross-spawn, which reads the
 * environment at import time).
 * @module
 */

// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.d.ts"
export { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/client/stdio.d.ts"
export { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
