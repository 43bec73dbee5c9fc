/**
 * Builds the single-file artifact: `deno bundle` of `lib/bundle/entry.ts`
 * into one minified ES module that imports only `node:` builtins, so it runs
 * with a bare `deno run` from any directory, without `deno.json` or
 * `node_modules`. Optionally compiles that file into a binary.
 *
 * `deno task bundle` and `deno task compile` run this file
 * (`[--out dist/feishu-mcp.js] [--compile [--binary dist/feishu-mcp] [--config F [--workdir D]]]`).
 * Bundling needs no network once the npm packages and esbuild are cached;
 * compiling downloads Deno's `denort` runtime unless `DENORT_BIN` names one.
 * @module
 */

import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { helpText } from "../cli/help.ts";
import { confinedFlags, hostsFor } from "../launch/mod.ts";

/** The repository root. */
export const REPO_DIR: string = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");

/** The bundle's entry module. */
export const ENTRY: string = join(REPO_DIR, "lib", "bundle", "entry.ts");

/**
 * npm modules the app never loads, left out of the bundle: the ML-enhanced
 * Opus decoder, which `ogg-opus-decoder` imports lazily only when asked for
 * speech enhancement (4 MB of WASM).
 */
export const NEVER_LOADED: readonly string[] = ["@wasm-audio-decoders/opus-ml"];

/** Options of {@link buildBundle}. */
export interface BuildOptions {
  /** Output file. */
  outFile: string;
  /** Minify (default true). */
  minify?: boolean;
}

/** What a build produced. */
export interface BuildResult {
  path: string;
  bytes: number;
}

/**
 * Bundles the app into `outFile` and checks that the result imports nothing
 * but `node:` builtins (and the modules in {@link NEVER_LOADED}).
 */
export async function buildBundle(options: BuildOptions): Promise<BuildResult> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "bundle",
      "--platform=deno",
      "--config",
      join(REPO_DIR, "deno.json"),
      // Not `--keep-names`: it breaks the `require` shim Deno adds for CommonJS
      // packages ("Dynamic require of node:util is not supported"). Our errors set
      // their `name` explicitly.
      ...(options.minify ?? true ? ["--minify"] : []),
      ...NEVER_LOADED.flatMap((m) => ["--external", m]),
      "-o",
      options.outFile,
      ENTRY,
    ],
    cwd: REPO_DIR,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(`deno bundle failed:\n${new TextDecoder().decode(out.stderr)}`);
  }
  const foreign = foreignImports(await moduleImports(options.outFile));
  if (foreign.length) {
    throw new Error(`Expected the bundle to import only node: builtins but found ${foreign}`);
  }
  return { path: options.outFile, bytes: (await Deno.stat(options.outFile)).size };
}

/** The specifiers a module imports, static and dynamic, as `deno info` reads them. */
async function moduleImports(path: string): Promise<string[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--no-config", "--json", path],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(`deno info failed:\n${new TextDecoder().decode(out.stderr)}`);
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    roots: string[];
    modules: { specifier: string; dependencies?: { specifier: string }[] }[];
  };
  const root = info.modules.find((m) => m.specifier === info.roots[0]);
  return (root?.dependencies ?? []).map((d) => d.specifier);
}

/**
 * The imports of a bundle that are neither `node:` builtins nor deliberately
 * left out ({@link NEVER_LOADED}).
 *
 * @example
 * ```ts
 * import { foreignImports } from "./build.ts";
 * const found = foreignImports(["node:fs", "npm:x", "@wasm-audio-decoders/opus-ml"]);
 * if (found.join() !== "npm:x") throw new Error();
 * ```
 */
export function foreignImports(specifiers: string[]): string[] {
  return specifiers.filter((s) => !s.startsWith("node:") && !NEVER_LOADED.includes(s));
}

/**
 * The permissions baked into a compiled binary. It cannot re-execute itself
 * with flags computed at start, so they are computed now. Given the config
 * and workdir it will serve, it gets exactly the set `start` confines the
 * server to (read and write in the workdir, read of the config and media
 * roots, the configured Feishu hosts and proxies, `--allow-run` of the
 * configured transcriber); without them, what `deno run` would give it for a
 * workdir that is its working directory: read and write of `.`, the Feishu
 * and Lark hosts, the environment, no programs.
 *
 * @example
 * ```ts
 * import { compileFlags } from "./build.ts";
 * const f = compileFlags();
 * if (!f.includes("--allow-write=.") || f.some((x) => x.startsWith("--allow-run"))) throw new Error();
 * ```
 */
export function compileFlags(
  target: { configPath: string; workdir: string; env?: Record<string, string | undefined> } | null =
    null,
): string[] {
  const base = ["--no-prompt", "--no-config", "--unstable-kv"];
  if (target) {
    const flags = confinedFlags({
      // A compiled binary carries its own files: nothing beside it needs reading.
      appDir: target.workdir,
      workdir: target.workdir,
      configPath: target.configPath,
      env: target.env ?? {},
    });
    return [...base, ...flags.filter((f) => f !== "--no-prompt")];
  }
  const hosts = [...hostsFor("feishu"), ...hostsFor("lark")];
  return [
    ...base,
    "--allow-read=.",
    "--allow-write=.",
    "--allow-env",
    `--allow-net=${hosts.join(",")}`,
  ];
}

/** Compiles a built bundle into a binary (needs `DENORT_BIN` or internet). */
export async function compileBinary(
  bundle: string,
  binary: string,
  flags: string[] = compileFlags(),
): Promise<BuildResult> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["compile", ...flags, "-o", binary, bundle],
    cwd: REPO_DIR,
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (!out.success) {
    throw new Error(
      `deno compile failed (exit ${out.code}); it downloads Deno's denort runtime ` +
        "unless DENORT_BIN names a denort binary of the same Deno version",
    );
  }
  return { path: binary, bytes: (await Deno.stat(binary)).size };
}

/** The compile flags of `--config F [--workdir D]` (paths from the caller's directory). */
function compileTarget(config: string | undefined, workdir: string | undefined): string[] {
  if (config === undefined) {
    if (workdir !== undefined) throw new Error("--workdir needs --config (the config it serves)");
    return compileFlags();
  }
  const caller = Deno.env.get("INIT_CWD") || Deno.cwd();
  return compileFlags({
    configPath: resolve(caller, config),
    workdir: resolve(caller, workdir ?? "."),
    env: Deno.env.toObject(),
  });
}

function say(line: string): void {
  Deno.stderr.writeSync(new TextEncoder().encode(line + "\n"));
}

function size(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(2)} MB`;
}

async function main(): Promise<void> {
  if (Deno.args.some((a) => a === "--help" || a === "-h")) {
    Deno.stdout.writeSync(new TextEncoder().encode(helpText("compile")));
    return;
  }
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      out: { type: "string", default: join(REPO_DIR, "dist", "feishu-mcp.js") },
      compile: { type: "boolean", default: false },
      binary: { type: "string", default: join(REPO_DIR, "dist", "feishu-mcp") },
      config: { type: "string" },
      workdir: { type: "string" },
    },
    strict: true,
  });
  await Deno.mkdir(dirname(values.out), { recursive: true });
  const bundle = await buildBundle({ outFile: values.out });
  say(`bundle: ${relative(Deno.cwd(), bundle.path)} (${size(bundle.bytes)})`);
  if (values.compile) {
    const flags = compileTarget(values.config, values.workdir);
    say(`permissions: ${flags.filter((f) => f.startsWith("--allow")).join(" ")}`);
    const binary = await compileBinary(bundle.path, values.binary, flags);
    say(`binary: ${relative(Deno.cwd(), binary.path)} (${size(binary.bytes)})`);
  }
}

if (import.meta.main) {
  await main().catch((err: Error) => {
    say(`feishu-mcp build: ${err.message}`);
    Deno.exit(1);
  });
}
