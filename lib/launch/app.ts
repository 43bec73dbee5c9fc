/**
 * What the running program is — the source tree (`main.ts`), the single-file
 * bundle (`dist/feishu-mcp.js`) or a compiled binary — and how it starts
 * itself again: the confining launcher re-executes it, the sandbox spawns it
 * as an agent would.
 * @module
 */

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The program as it is packaged. */
export interface App {
  /** `source`: `deno run main.ts`; `bundle`: `deno run feishu-mcp.js`; `compiled`: a `deno compile` binary. */
  form: "source" | "bundle" | "compiled";
  /** Absolute path of the module `deno run` starts (for `compiled`, the binary). */
  entry: string;
  /** Directory of the app's own files; the confined server may read it. */
  appDir: string;
  /** The Deno executable (`Deno.execPath()`; for `compiled`, the binary itself). */
  execPath: string;
}

/**
 * The app run from its source tree, given `main.ts`'s URL.
 *
 * @example
 * ```ts
 * import { sourceApp } from "./app.ts";
 * const app = sourceApp("file:///repo/main.ts", "/usr/bin/deno");
 * if (app.appDir !== "/repo" || app.form !== "source") throw new Error();
 * ```
 */
export function sourceApp(mainUrl: string, execPath: string): App {
  const entry = fileURLToPath(mainUrl);
  return { form: "source", entry, appDir: dirname(entry), execPath };
}

/**
 * The app run as one file, given that file's URL: a bundle, or a compiled
 * binary when `standalone` (`Deno.build.standalone`).
 *
 * @example
 * ```ts
 * import { bundleApp } from "./app.ts";
 * const app = bundleApp("file:///opt/fm/feishu-mcp.js", { execPath: "/usr/bin/deno", standalone: false });
 * if (app.form !== "bundle" || app.appDir !== "/opt/fm") throw new Error();
 * ```
 */
export function bundleApp(
  moduleUrl: string,
  options: { execPath: string; standalone: boolean },
): App {
  if (options.standalone) {
    return {
      form: "compiled",
      entry: options.execPath,
      appDir: dirname(options.execPath),
      execPath: options.execPath,
    };
  }
  const entry = fileURLToPath(moduleUrl);
  return { form: "bundle", entry, appDir: dirname(entry), execPath: options.execPath };
}

/** A process to spawn. */
export interface AppCommand {
  command: string;
  args: string[];
}

/**
 * The command that runs the app again with these permission flags and
 * program arguments. From source it uses the repository's `deno.json`; a
 * bundle ignores any config file near its working directory and asks for
 * KV itself; a compiled binary has its permissions baked in, so `flags` are
 * dropped.
 *
 * @example A bundle asks for KV itself
 * ```ts
 * import { appCommand, bundleApp } from "./app.ts";
 * const app = bundleApp("file:///opt/fm.js", { execPath: "/usr/bin/deno", standalone: false });
 * const c = appCommand(app, { flags: ["--no-prompt"], args: ["serve"] });
 * if (c.args.join(" ") !== "run --no-prompt --no-config --unstable-kv /opt/fm.js serve") throw new Error();
 * ```
 */
export function appCommand(app: App, options: { flags: string[]; args: string[] }): AppCommand {
  switch (app.form) {
    case "source":
      return {
        command: app.execPath,
        args: [
          "run",
          ...options.flags,
          "--config",
          join(app.appDir, "deno.json"),
          app.entry,
          ...options.args,
        ],
      };
    case "bundle":
      return {
        command: app.execPath,
        args: ["run", ...options.flags, "--no-config", "--unstable-kv", app.entry, ...options.args],
      };
    case "compiled":
      return { command: app.entry, args: [...options.args] };
  }
}

/** The flags `serve` is started with before it confines itself (as `deno task start` has them). */
const SERVE_FLAGS = ["--no-prompt", "--allow-read", "--allow-run", "--allow-env", "--allow-write"];

/**
 * The command an MCP client runs to start the bridge on one config and
 * workdir: what the sandbox spawns and what `setup` prints to paste.
 *
 * @example
 * ```ts
 * import { serveCommand, sourceApp } from "./app.ts";
 * const c = serveCommand(sourceApp("file:///repo/main.ts", "/usr/bin/deno"), {
 *   configPath: "/c/feishu.json", workdir: "/agent",
 * });
 * if (c.args.slice(-5).join(" ") !== "serve --config /c/feishu.json --workdir /agent") throw new Error();
 * ```
 */
export function serveCommand(
  app: App,
  target: { configPath: string; workdir: string },
): AppCommand {
  return appCommand(app, {
    flags: SERVE_FLAGS,
    args: ["serve", "--config", target.configPath, "--workdir", target.workdir],
  });
}
