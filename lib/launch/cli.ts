/**
 * The command line, shared by every form of the app (source, bundle,
 * compiled): `serve` (default) re-executes the app confined when it was
 * started unconfined, then serves MCP over stdio; `sandbox` runs the
 * emulator, the web page, the bridge and a demo agent.
 * @module
 */

// Only the launch contract, not the whole config module: the outer launcher stays light.
import { configuredProxies, proxyEnvOf } from "../feishu/proxy.ts";
import { type LaunchOptions, resolveLaunch } from "../config/launch.ts";
import { type App, appCommand } from "./app.ts";
import { peekConfig, permissionFlags } from "./permissions.ts";

function fail(message: string): never {
  Deno.stderr.writeSync(new TextEncoder().encode(`feishu-mcp: ${message}\n`));
  Deno.exit(2);
}

/** Runs the program named by `Deno.args`; returns when it is done (or exits). */
export async function runCli(app: App): Promise<void> {
  let launch: LaunchOptions;
  try {
    launch = resolveLaunch({ args: Deno.args, env: Deno.env.toObject(), cwd: Deno.cwd() });
  } catch (err) {
    fail((err as Error).message);
  }
  if (launch.subcommand === "sandbox") {
    const { runSandbox } = await import("../sandbox/mod.ts");
    return await runSandbox(launch, app);
  }
  const unconfined = Deno.permissions.querySync({ name: "write" }).state === "granted";
  if (!launch.confined && unconfined && !Deno.env.get("FEISHU_MCP_UNCONFINED")) {
    return await reexecConfined(app, launch);
  }
  if (
    app.form === "compiled" &&
    Deno.permissions.querySync({ name: "write", path: launch.workdir }).state !== "granted"
  ) {
    fail(
      `Expected write access to the workdir ${launch.workdir} but it was not granted: ` +
        "a compiled feishu-mcp may only write below the directory it is started in",
    );
  }
  const { serve } = await import("../serve.ts");
  await serve(launch);
  // Everything durable is closed by now. Exit explicitly: an HTTP request the
  // shutdown aborted (a stalled download) can keep Deno's node:http socket, and
  // so the process, alive until the host loses patience and kills it.
  Deno.exit(0);
}

async function reexecConfined(app: App, launch: LaunchOptions): Promise<never> {
  const peek = peekConfig(launch.configPath);
  const env = Deno.env.toObject();
  const flags = permissionFlags({
    appDir: app.appDir,
    workdir: launch.workdir,
    configPath: launch.configPath,
    domains: peek.domains,
    mediaRoots: peek.mediaRoots,
    transcriber: peek.transcriber,
    proxies: configuredProxies(proxyEnvOf(env)).map((u) => u.origin),
  });
  Deno.mkdirSync(launch.workdir, { recursive: true });
  const { command, args } = appCommand(app, {
    flags,
    args: [
      "serve",
      "--confined",
      "--workdir",
      launch.workdir,
      ...(launch.configPath ? ["--config", launch.configPath] : []),
      "--name",
      launch.mcpName,
    ],
  });
  const child = new Deno.Command(command, {
    args,
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
}
