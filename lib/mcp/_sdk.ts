/**
 * The product's only import of `@modelcontextprotocol/sdk` (server side).
 * `deno check` types the SDK's subpath imports as `any` (its export map sends
 * `x.js` to a missing `x.js.d.ts`), so each import names its `.d.ts`.
 * @module
 */

// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/server/index.d.ts"
export { Server } from "@modelcontextprotocol/sdk/server/index.js";
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/server/stdio.d.ts"
export { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/shared/transport.d.ts"
export type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
// @ts-types="../../node_modules/@modelcontextprotocol/sdk/dist/esm/types.d.ts"
export {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
