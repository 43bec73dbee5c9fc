/**
 * `serve`: start the service and speak MCP on stdio until the client leaves.
 * @module
 */

import type { LaunchOptions } from "./config/mod.ts";
import { defaultDeps, guardStdout } from "./core/mod.ts";
import { createMcpServer, serveStdio } from "./mcp/mod.ts";
import { startService } from "./service/mod.ts";

/** Runs the server; resolves when the MCP session ended and everything closed. */
export async function serve(launch: LaunchOptions): Promise<void> {
  const deps = defaultDeps();
  guardStdout(deps.log);
  let service;
  try {
    service = await startService(launch, deps);
  } catch (err) {
    deps.log.error((err as Error).message);
    Deno.exit(1);
  }
  const mcp = createMcpServer(service.app);
  service.attach(mcp);
  deps.log.info(`feishu-mcp ${service.context ? "running" : "running in degraded mode"}`, {
    workdir: launch.workdir,
  });
  await serveStdio(mcp);
  await service.close();
  deps.log.info("feishu-mcp stopped");
}
