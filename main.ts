/**
 * feishu-mcp entry point.
 *
 * - `serve` (default): MCP over stdio. Started unconfined (as `deno task start`
 *   does), it re-executes itself with permissions narrowed to the workdir, the
 *   config file, the media roots and the Feishu hosts.
 * - `sandbox`: the loopback Feishu emulator, its web chat page, the bridge and
 *   a demo agent, for trying the whole loop without a tenant.
 * @module
 */

import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { resolveLaunch } from "./lib/config/launch.ts";
import { peekConfig, permissionFlags } from "./lib/launch/mod.ts";

const APP_DIR = dirname(fileURLToPath(import.meta.url));

function fail(message: string): never {
  Deno.stderr.writeSync(new TextEncoder().encode(`feishu-mcp: ${message}\n`));
  Deno.exit(2);
}

async function reexecConfined(
  args: string[],
  launch: ReturnType<typeof resolveLaunch>,
): Promise<never> {
  const peek = peekConfig(launch.configPath);
  const env = Deno.env.toObject();
  const flags = permissionFlags({
    appDir: APP_DIR,
    workdir: launch.workdir,
    configPath: launch.configPath,
    domains: peek.domains,
    mediaRoots: peek.mediaRoots,
    transcriber: peek.transcriber,
    proxies: [env.HTTPS_PROXY, env.https_proxy, env.HTTP_PROXY, env.http_proxy].filter((
      p,
    ): p is string => !!p),
  });
  Deno.mkdirSync(launch.workdir, { recursive: true });
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      ...flags,
      "--config",
      `${APP_DIR}/deno.json`,
      `${APP_DIR}/main.ts`,
      "serve",
      "--confined",
      "--workdir",
      launch.workdir,
      ...(launch.configPath ? ["--config", launch.configPath] : []),
      "--name",
      launch.mcpName,
    ],
    cwd: launch.workdir,
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
  for (const sig of ["SIGINT", "SIGTERM"] as const) {
    Deno.addSignalListener(sig, () => {
      try {
        child.kill(sig);
      } catch {
        // the child is already gone
      }
    });
  }
  const status = await child.status;
  Deno.exit(status.code);
  void args;
}

async function main(): Promise<void> {
  let launch;
  try {
    launch = resolveLaunch({ args: Deno.args, env: Deno.env.toObject(), cwd: Deno.cwd() });
  } catch (err) {
    fail((err as Error).message);
  }
  if (launch.subcommand === "sandbox") {
    const { runSandbox } = await import("./lib/sandbox/mod.ts");
    return await runSandbox(launch);
  }
  const unconfined = Deno.permissions.querySync({ name: "write" }).state === "granted";
  if (!launch.confined && unconfined && !Deno.env.get("FEISHU_MCP_UNCONFINED")) {
    return await reexecConfined(Deno.args, launch);
  }
  const { serve } = await import("./lib/serve.ts");
  await serve(launch);
  // Everything durable is closed by now. Exit explicitly: an HTTP request the
  // shutdown aborted (a stalled download) can keep Deno's node:http socket, and
  // so the process, alive until the host loses patience and kills it.
  Deno.exit(0);
}

if (import.meta.main) await main();
