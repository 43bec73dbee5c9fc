/**
 * Baseline for the startup and per-call benchmarks: a bare MCP SDK server
 * (the same SDK, served the same way: both eras from one factory) with one
 * tool and a one-field zod schema, nothing else.
 */

import { McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { z } from "zod";

serveStdio(() => {
  const server = new McpServer({ name: "bare", version: "1.0.0" });
  server.registerTool(
    "echo",
    { description: "echo", inputSchema: z.object({ text: z.string() }) },
    ({ text }) => ({ content: [{ type: "text", text }] }),
  );
  return server;
});
