/**
 * Test-side MCP client shim (kept out of the product's import graph; the
 * client pulls in cross-spawn, which reads the environment at import).
 * @module
 */

// @ts-types="../node_modules/@modelcontextprotocol/sdk/dist/esm/client/index.d.ts"
export { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="../node_modules/@modelcontextprotocol/sdk/dist/esm/client/stdio.d.ts"
export { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="../node_modules/@modelcontextprotocol/sdk/dist/esm/types.d.ts"
export {
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
