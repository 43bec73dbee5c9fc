/**
 * Which Deno permissions the confined server gets: read and write inside the
 * workdir, read of the config file, the media roots and the app's own files,
 * network only to the configured Feishu hosts (and a proxy), run only the
 * transcriber. Computed at spawn time from the launch options and config.
 * @module
 */

// The light reader, not config/mod.ts: the launcher must not load the validator.
import { readRawConfig } from "../config/peek.ts";
import { configuredProxies, proxyEnvOf } from "../feishu/proxy.ts";

/** What the flags depend on (a loosely read config is enough). */
export interface PermissionInputs {
  appDir: string;
  workdir: string;
  configPath: string | null;
  /** `domain` of every account (`feishu`, `lark` or a base URL). */
  domains: string[];
  mediaRoots: string[];
  /** argv[0] of the transcriber command, if configured. */
  transcriber: string | null;
  /** HTTPS_PROXY / HTTP_PROXY, if set. */
  proxies: string[];
  /**
   * True when `NODE_EXTRA_CA_CERTS` names extra trusted CAs (a TLS-inspecting
   * proxy, a private deployment): Deno's `node:tls`, which the node-sdk's
   * REST and WebSocket clients use, then reads the default CA list through a
   * `sys` permission check.
   */
  extraCaCerts?: boolean;
}

/** Hosts a Feishu domain setting needs (REST and the long connection). */
export function hostsFor(domain: string): string[] {
  if (domain === "feishu") return ["open.feishu.cn", "msg-frontier.feishu.cn", "*.feishu.cn"];
  if (domain === "lark") {
    return ["open.larksuite.com", "msg-frontier.larksuite.com", "*.larksuite.com"];
  }
  try {
    const u = new URL(domain);
    return [u.port ? `${u.hostname}:${u.port}` : u.hostname];
  } catch {
    return [];
  }
}

/**
 * The `deno run` permission flags of the confined server.
 *
 * @example
 * ```ts
 * import { permissionFlags } from "./permissions.ts";
 * const f = permissionFlags({
 *   appDir: "/app", workdir: "/w", configPath: "/cfg/f.json", domains: ["http://127.0.0.1:9"],
 *   mediaRoots: [], transcriber: null, proxies: [],
 * });
 * if (!f.includes("--allow-write=/w") || !f.includes("--allow-net=127.0.0.1:9")) throw new Error(f.join(" "));
 * ```
 */
export function permissionFlags(i: PermissionInputs): string[] {
  // A flag's entries are comma-separated with no escape: a configured entry
  // holding a comma would grant more than it names, so it grants nothing (the
  // confined server then refuses that config with one clear line).
  const read = new Set([i.appDir, i.workdir, ...i.mediaRoots.filter(single)]);
  if (i.configPath) read.add(i.configPath);
  const net = new Set(i.domains.filter(single).flatMap(hostsFor).filter(single));
  for (const p of i.proxies) for (const h of hostsFor(p)) if (single(h)) net.add(h);
  const flags = [
    "--no-prompt",
    `--allow-read=${[...read].join(",")}`,
    `--allow-write=${i.workdir}`,
    "--allow-env",
  ];
  if (net.size) flags.push(`--allow-net=${[...net].join(",")}`);
  // Deno names that check `sys` "ca", a name `--allow-sys=` does not accept: only the whole grant works.
  if (i.extraCaCerts) flags.push("--allow-sys");
  // Spawning needs only the run grant; the transcriber reads its own files with its own rights.
  if (i.transcriber && single(i.transcriber)) flags.push(`--allow-run=${i.transcriber}`);
  return flags;
}

/** True when an entry is one flag entry (no comma that would split it). */
function single(entry: string): boolean {
  return !entry.includes(",");
}

/** Reads just what the flags need from a config file; never throws. */
export function peekConfig(
  path: string | null,
): { domains: string[]; mediaRoots: string[]; transcriber: string | null } {
  const out = {
    domains: [] as string[],
    mediaRoots: [] as string[],
    transcriber: null as string | null,
  };
  // Unreadable or invalid: the confined server reports it precisely; it needs no extra grants.
  // deno-lint-ignore no-explicit-any -- unvalidated JSON, every field is checked as it is read
  const raw = readRawConfig(path) as any;
  for (const a of Array.isArray(raw?.accounts) ? raw.accounts : []) {
    out.domains.push(typeof a?.domain === "string" ? a.domain : "feishu");
  }
  if (Array.isArray(raw?.media_roots)) {
    out.mediaRoots = raw.media_roots.filter((p: unknown) => typeof p === "string");
  }
  const cmd = raw?.transcriber?.command;
  if (Array.isArray(cmd) && typeof cmd[0] === "string") out.transcriber = cmd[0];
  return out;
}

/**
 * The confined flags for one workdir and config, read from the config file
 * and the proxy environment: what `start` re-executes the server with, and
 * what `deno task compile --config` bakes into a binary.
 */
export function confinedFlags(i: {
  appDir: string;
  workdir: string;
  configPath: string | null;
  env: Record<string, string | undefined>;
}): string[] {
  const peek = peekConfig(i.configPath);
  return permissionFlags({
    appDir: i.appDir,
    workdir: i.workdir,
    configPath: i.configPath,
    domains: peek.domains,
    mediaRoots: peek.mediaRoots,
    transcriber: peek.transcriber,
    proxies: configuredProxies(proxyEnvOf(i.env)).map((u) => u.origin),
    extraCaCerts: Boolean(i.env.NODE_EXTRA_CA_CERTS?.trim()),
  });
}
