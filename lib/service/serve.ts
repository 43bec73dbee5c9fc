/**
 * `serve`: speak MCP on stdio until the client leaves. The handshake and
 * `tools/list` are answered from light modules; the service (config, store,
 * node-sdk, validation) loads right after, so start-up stays close to a bare
 * MCP server. Calls that arrive earlier simply wait for it.
 * @module
 */

import type { LaunchOptions } from "../config/mod.ts";
import { defaultDeps, guardStdout, stateDir } from "../core/mod.ts";
import { loadLazy } from "../core/lazy.ts";
// Deep imports keep the handshake light: the tool family (zod) and the actions load
// with the service, after `tools/list` was answered.
import { createMcpServer, type McpApp } from "../mcp/server.ts";
import { serveStdio } from "../mcp/stdio.ts";
import { chooseProjection } from "../mcp/projection.ts";
import { peekAllowedUsers, peekToolSchema, type ToolSchemaSetting } from "../config/peek.ts";
import type { PushTarget } from "../notify/mod.ts";
import { acquireWorkdirLock, type WorkdirLock } from "../store/lock.ts";
import { INSTRUCTIONS, SERVER_NAME, VERSION } from "./about.ts";
import { resourceList } from "./resources.ts";
import type { Service } from "./start.ts";
import type { McpView } from "./status.ts";

/**
 * How long a new server waits for the previous one on its workdir to exit: a
 * dual-era client's throwaway probe process, or a restart that overlaps.
 */
const LOCK_WAIT_MS = 5_000;

/** Runs the server; resolves when the MCP session ended and everything closed. */
export async function serve(launch: LaunchOptions): Promise<void> {
  const deps = defaultDeps();
  guardStdout(deps.log);
  let lock: WorkdirLock;
  try {
    lock = await acquireWorkdirLock(stateDir(launch.workdir), {
      waitMs: LOCK_WAIT_MS,
      onWait: () => deps.log.info("waiting for the previous server on this workdir to exit"),
    });
  } catch (err) {
    deps.log.error((err as Error).message);
    Deno.exit(1);
  }

  const lingtaiAgentDir = Boolean(Deno.env.get("LINGTAI_AGENT_DIR"));
  let loading: Promise<Service> | null = null;
  let setting: ToolSchemaSetting | undefined;
  let relayDeclared: boolean | undefined;
  let listed: { client: string | null; setting: string; projection: string } | null = null;
  const mcpView = (): McpView => ({
    era: mcp.era(),
    client_name: listed?.client ?? null,
    tool_schema: listed?.setting ?? null,
    tool_projection: listed?.projection ?? null,
  });
  // The MCP server exists before the service starts, so pushes always have a target.
  const push: PushTarget = {
    notifyChannel: (params) => mcp.notifyChannel(params),
    notifyResourceUpdated: (uri) => mcp.notifyResourceUpdated(uri),
    notifyPermission: (params) => mcp.notifyPermission(params),
  };
  const service = () =>
    loading ??= loadLazy<typeof import("./start.ts")>(
      "start",
      new URL("./start.ts", import.meta.url),
    )
      .then((m) => m.startService(launch, deps, { lock, push, mcp: mcpView }))
      .then((s) => {
        const state = s.status().status === "ok" ? "running" : "running in degraded mode";
        deps.log.info(`feishu-mcp ${state}`, { workdir: launch.workdir });
        return s;
      });
  // Calls still running when stdin ends get to answer before the server closes.
  const inflight = new Set<Promise<unknown>>();
  const track = <T>(p: Promise<T>): Promise<T> => {
    inflight.add(p);
    p.finally(() => inflight.delete(p)).catch(() => {});
    return p;
  };
  const app: McpApp = {
    name: SERVER_NAME,
    version: VERSION,
    instructions: INSTRUCTIONS,
    toolProjection: (client) => {
      // The config is read once per run (the service loads it once too).
      setting ??= peekToolSchema(launch.configPath);
      const projection = chooseProjection(setting, client, { lingtaiAgentDir });
      listed = { client: client.name?.slice(0, 100) ?? null, setting, projection };
      return projection;
    },
    callTool: (args) => track(service().then((s) => s.app.callTool(args))),
    listResources: resourceList,
    readResource: (uri) => track(service().then((s) => s.app.readResource(uri))),
    permissionRelay: {
      enabled: () => relayDeclared ??= peekAllowedUsers(launch.configPath),
      request: (params) =>
        void track(service().then((s) => s.permission?.request(params))).catch((err) =>
          deps.log.warn("permission request not relayed", { error: (err as Error).message })
        ),
    },
  };
  const mcp = createMcpServer(app, { onToolsListed: () => setTimeout(service, 0) });
  // Inbound work must start even if the client never lists tools.
  const fallback = setTimeout(service, 300);
  await serveStdio(mcp, {
    onerror: (err) => deps.log.debug(`mcp: ${err.message}`),
    drain: async () => {
      // Requests read just before EOF are dispatched on a later tick; let them start.
      await new Promise((r) => setTimeout(r, 0));
      while (inflight.size) await Promise.allSettled([...inflight]);
    },
  });
  clearTimeout(fallback);
  // A process that only answered a probe (`server/discover`, then EOF) never
  // starts the service: no Feishu connection, and the workdir is free at once.
  const started = loading as Promise<Service> | null;
  if (started) await (await started).close();
  lock.release();
  deps.log.info("feishu-mcp stopped");
}
