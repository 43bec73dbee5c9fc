/**
 * Serving MCP over this process's stdio, and noticing when the client goes
 * away (stdin EOF, or the parent process dying) so the server exits and
 * releases the bot connection.
 * @module
 */

import process from "node:process";
import { StdioServerTransport } from "./_sdk.ts";
import type { McpHandle } from "./server.ts";

/** Options of {@link serveStdio}. */
export interface StdioOptions {
  /** How often to check that the parent still lives (ms); 0 disables. */
  orphanCheckMs?: number;
  /** Awaited after stdin ends, before closing: lets in-flight calls answer. */
  drain?: () => Promise<void>;
}

/**
 * Connects the server to stdin/stdout and resolves when the session ends:
 * stdin closed, transport closed, or the parent process gone.
 */
export async function serveStdio(handle: McpHandle, options: StdioOptions = {}): Promise<void> {
  const transport = new StdioServerTransport();
  await handle.connect(transport);
  const parent = Deno.ppid;
  let timer: ReturnType<typeof setInterval> | undefined;
  const ended = new Promise<void>((resolve) => {
    const end = () => resolve();
    process.stdin.once("end", end);
    process.stdin.once("close", end);
    const every = options.orphanCheckMs ?? 2000;
    if (every > 0) {
      timer = setInterval(() => {
        if (Deno.ppid !== parent) end();
      }, every);
    }
  });
  await Promise.race([ended, handle.closed]);
  if (timer !== undefined) clearInterval(timer);
  if (options.drain) await options.drain();
  await handle.close().catch(() => {});
}
