/**
 * Launch resolution: which subcommand, which config file, which workdir, which
 * registry name — from flags, then `FEISHU_MCP_*`, then `LINGTAI_*`.
 * @module
 */

import { isAbsolute, resolve } from "node:path";
import { parseArgs } from "node:util";

/** Subcommands of `main.ts`. */
export const SUBCOMMANDS = ["serve", "sandbox", "canary", "doctor", "setup"] as const;
/** One of {@link SUBCOMMANDS}. */
export type Subcommand = typeof SUBCOMMANDS[number];

/** Everything the process needs to know before it reads the config. */
export interface LaunchOptions {
  subcommand: Subcommand;
  /** Absolute config path, or null when none was named (degraded mode). */
  configPath: string | null;
  /** How the config was named, for `accounts.details[].config_source`. */
  configSource: string | null;
  /** Absolute workdir; all state lives below it. */
  workdir: string;
  /** True when the workdir was named (flag or env), not defaulted to the caller's directory. */
  workdirExplicit: boolean;
  /** The MCP registry name (LICC inbox subfolder). */
  mcpName: string;
  /** Extra flags for subcommands (e.g. sandbox port). */
  port: number | null;
  /** True when the process already runs with confined permissions. */
  confined: boolean;
  /** `doctor --json`: the report as JSON instead of text. */
  json?: boolean;
  /** `setup --domain`: `feishu`, `lark` or a base URL; null when not given. */
  domain?: string | null;
  /** `setup --account`: the alias of the app to add; null when not given. */
  account?: string | null;
}

/** Inputs of {@link resolveLaunch}; all injected so the function is pure. */
export interface LaunchInputs {
  args: string[];
  env: Record<string, string | undefined>;
  cwd: string;
  home?: string;
}

/**
 * Resolves the launch contract.
 *
 * @example Flags win over the environment
 * ```ts
 * import { resolveLaunch } from "./launch.ts";
 * const l = resolveLaunch({
 *   args: ["--config", "c.json", "--workdir", "/w"],
 *   env: { FEISHU_MCP_CONFIG: "/other.json", INIT_CWD: "/caller" },
 *   cwd: "/app",
 * });
 * if (l.configPath !== "/caller/c.json" || l.workdir !== "/w" || l.subcommand !== "serve") throw new Error();
 * ```
 */
export function resolveLaunch(inputs: LaunchInputs): LaunchOptions {
  const { values, positionals } = parseArgs({
    // The canary parses its own flags (`--to`, `--timeout`, …) and is named
    // first; every other subcommand's flags are checked strictly here.
    args: inputs.args[0] === "canary" ? ["canary"] : inputs.args,
    options: {
      config: { type: "string" },
      workdir: { type: "string" },
      name: { type: "string" },
      port: { type: "string" },
      confined: { type: "boolean" },
      json: { type: "boolean" },
      domain: { type: "string" },
      account: { type: "string" },
    },
    allowPositionals: true,
    strict: true,
  });
  const sub = positionals[0] ?? "serve";
  if (!(SUBCOMMANDS as readonly string[]).includes(sub)) {
    throw new Error(`Expected a subcommand in ${SUBCOMMANDS.join(", ")} but found '${sub}'`);
  }
  if (values.json && sub !== "doctor") {
    throw new Error(`Expected --json only with doctor but found it with '${sub}'`);
  }
  for (const flag of ["domain", "account"] as const) {
    if (values[flag] !== undefined && sub !== "setup") {
      throw new Error(`Expected --${flag} only with setup but found it with '${sub}'`);
    }
  }
  const env = inputs.env;
  const caller = nonEmpty(env.INIT_CWD) ?? inputs.cwd;
  const home = inputs.home ?? nonEmpty(env.HOME) ?? "/";
  const expand = (p: string) => p === "~" ? home : p.startsWith("~/") ? home + p.slice(1) : p;

  const workdirRaw = nonEmpty(values.workdir) ?? nonEmpty(env.FEISHU_MCP_WORKDIR) ??
    nonEmpty(env.LINGTAI_AGENT_DIR);
  const workdir = resolve(caller, expand(workdirRaw ?? caller));

  let configPath: string | null = null;
  let configSource: string | null = null;
  if (nonEmpty(values.config)) {
    configSource = values.config!;
    configPath = resolve(caller, expand(values.config!));
  } else {
    const fromEnv = nonEmpty(env.FEISHU_MCP_CONFIG) ?? nonEmpty(env.LINGTAI_FEISHU_CONFIG);
    if (fromEnv) {
      configSource = fromEnv;
      const p = expand(fromEnv);
      configPath = isAbsolute(p) ? p : resolve(workdir, p);
    }
  }

  const port = values.port === undefined ? null : Number(values.port);
  if (port !== null && !(Number.isInteger(port) && port >= 0 && port < 65536)) {
    throw new Error(`Expected --port to be an integer in 0..65535 but found '${values.port}'`);
  }
  return {
    subcommand: sub as Subcommand,
    configPath,
    configSource,
    workdir,
    workdirExplicit: workdirRaw !== undefined,
    mcpName: nonEmpty(values.name) ?? nonEmpty(env.LINGTAI_MCP_NAME) ?? "feishu",
    port,
    confined: values.confined ?? false,
    json: values.json ?? false,
    domain: nonEmpty(values.domain) ?? null,
    account: nonEmpty(values.account) ?? null,
  };
}

function nonEmpty(v: string | undefined): string | undefined {
  return v !== undefined && v.trim() !== "" ? v : undefined;
}
