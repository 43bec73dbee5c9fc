/**
 * Baseline for the startup and per-call benchmarks: a bare MCP SDK server
 * with one tool and a one-field zod schema, nothing else.
 */

// @ts-types="../node_modules/@modelcontextprotocol/sdk/dist/esm/server/mcp.d.ts"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
// @ts-types="../node_modules/@modelcontextprotocol/sdk/dist/esm/server/stdio.d.ts"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "bare", version: "1.0.0" });
server.registerTool(
  "echo",
  { description: "echo", inputSchema: { text: z.string() } },
  ({ text }) => ({ content: [{ type: "text", text }] }),
);
await server.connect(new StdioServerTransport());
