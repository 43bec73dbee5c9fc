/**
 * Confinement of `serve`: a server started unconfined (as `deno task start`
 * starts it) re-executes itself with its permissions narrowed to the
 * workdir, the config file, the media roots, the app's own files, the Feishu
 * hosts and the transcriber; a compiled binary must already be able to write
 * its workdir.
 * @module
 */

import type { LaunchOptions } from "../config/mod.ts";
import { type App, appCommand } from "./app.ts";
import { confinedFlags } from "./permissions.ts";

/** Writes one `feishu-mcp:` line to stderr and exits with status 2. */
export function fail(message: string): never {
  Deno.stderr.writeSync(new TextEncoder().encode(`feishu-mcp: ${message}\n`));
  Deno.exit(2);
}

/**
 * Returns when this process may serve as it is; otherwise runs the confined
 * server as a child and exits with its status (never returns).
 */
export async function ensureConfined(app: App, launch: LaunchOptions): Promise<void> {
  const unconfined = Deno.permissions.querySync({ name: "write" }).state === "granted";
  if (!launch.confined && unconfined && !Deno.env.get("FEISHU_MCP_UNCONFINED")) {
    await reexecConfined(app, launch);
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
}

async function reexecConfined(app: App, launch: LaunchOptions): Promise<never> {
  const flags = confinedFlags({
    appDir: app.appDir,
    workdir: launch.workdir,
    configPath: launch.configPath,
    env: Deno.env.toObject(),
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
