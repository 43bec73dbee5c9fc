/**
 * Which proxy, if any, a Feishu connection goes through. One resolver serves
 * the REST calls (axios) and the long connection (the `ws` socket), so both
 * follow the same environment: `https_proxy`/`HTTPS_PROXY` for https and wss
 * targets, `http_proxy`/`HTTP_PROXY` for http and ws targets, `all_proxy`/
 * `ALL_PROXY` as the fallback for both (lower case wins, as in curl), and
 * `no_proxy`/`NO_PROXY` to bypass.
 * @module
 */

/** Where proxy variables come from (`Deno.env` fits). */
export interface ProxyEnv {
  get(name: string): string | undefined;
}

/** The process environment. Reading it needs `--allow-env`. */
export const processProxyEnv: ProxyEnv = { get: (name) => Deno.env.get(name) };

/** A proxy environment from a plain record (tests, config). */
export function proxyEnvOf(vars: Record<string, string | undefined>): ProxyEnv {
  return { get: (name) => vars[name] };
}

const DEFAULT_PORTS: Record<string, number> = {
  "http:": 80,
  "https:": 443,
  "ws:": 80,
  "wss:": 443,
};

function lookup(env: ProxyEnv, name: string): string | undefined {
  const v = env.get(name.toLowerCase()) || env.get(name.toUpperCase());
  return v?.trim() || undefined;
}

function parseProxy(name: string, raw: string): URL {
  const withScheme = raw.includes("://") ? raw : `http://${raw}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new Error(`Expected ${name} to be a proxy URL like http://host:port but found ${raw}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new Error(
      `Expected ${name} to use http:// or https:// but found ${url.protocol}// (only HTTP proxies are supported)`,
    );
  }
  return url;
}

/**
 * Tells whether `NO_PROXY` exempts a host. Entries are separated by commas or
 * spaces; `*` exempts everything; `example.com`, `.example.com` and
 * `*.example.com` exempt the domain and its subdomains; `host:port` applies
 * to that port only. Matching ignores case. IP ranges (CIDR) are not supported.
 *
 * @example
 * ```ts
 * import { noProxyMatches } from "./proxy.ts";
 * if (!noProxyMatches("open.feishu.cn", 443, ".feishu.cn")) throw new Error();
 * if (!noProxyMatches("feishu.cn", 443, "feishu.cn")) throw new Error();
 * if (noProxyMatches("notfeishu.cn", 443, "feishu.cn")) throw new Error();
 * if (noProxyMatches("127.0.0.1", 8080, "127.0.0.1:9090")) throw new Error();
 * if (!noProxyMatches("anything", 1, "*")) throw new Error();
 * ```
 */
export function noProxyMatches(hostname: string, port: number, noProxy: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  for (const raw of noProxy.toLowerCase().split(/[\s,]+/)) {
    if (!raw) continue;
    if (raw === "*") return true;
    const m = raw.match(/^(.*?)(?::(\d+))?$/);
    let entry = (m?.[1] ?? raw).replace(/^\[|\]$/g, "");
    if (m?.[2] && Number(m[2]) !== port) continue;
    entry = entry.replace(/^\*?\./, "");
    if (!entry) continue;
    if (host === entry || host.endsWith(`.${entry}`)) return true;
  }
  return false;
}

/**
 * The proxy for a target URL, or null for a direct connection. Throws when a
 * relevant variable holds something that is not an HTTP(S) proxy URL.
 *
 * @example
 * ```ts
 * import { proxyEnvOf, proxyForUrl } from "./proxy.ts";
 * const env = proxyEnvOf({ HTTPS_PROXY: "http://proxy:3128", NO_PROXY: "localhost" });
 * if (proxyForUrl("wss://msg-frontier.feishu.cn/ws/v2", env)?.host !== "proxy:3128") throw new Error();
 * if (proxyForUrl("https://localhost/x", env) !== null) throw new Error();
 * if (proxyForUrl("http://127.0.0.1:9/x", env) !== null) throw new Error(); // http uses HTTP_PROXY
 * ```
 */
export function proxyForUrl(target: string | URL, env: ProxyEnv): URL | null {
  const url = typeof target === "string" ? new URL(target) : target;
  const secure = url.protocol === "https:" || url.protocol === "wss:";
  const name = secure ? "https_proxy" : "http_proxy";
  const raw = lookup(env, name) ?? lookup(env, "all_proxy");
  if (!raw) return null;
  const port = Number(url.port) || DEFAULT_PORTS[url.protocol] || 0;
  const noProxy = lookup(env, "no_proxy");
  if (noProxy && noProxyMatches(url.hostname, port, noProxy)) return null;
  return parseProxy(lookup(env, name) ? name.toUpperCase() : "ALL_PROXY", raw);
}

/**
 * Every proxy the environment names (https, http, all), parsed as the REST
 * and WS clients parse them; values that do not parse are left out (start-up
 * reports them through {@link validateProxyEnv}).
 *
 * @example
 * ```ts
 * import { configuredProxies, proxyEnvOf } from "./proxy.ts";
 * const p = configuredProxies(proxyEnvOf({ HTTPS_PROXY: "proxy.corp:3128", ALL_PROXY: "http://all:8080" }));
 * if (p.map((u) => u.origin).join() !== "http://proxy.corp:3128,http://all:8080") throw new Error();
 * ```
 */
export function configuredProxies(env: ProxyEnv): URL[] {
  const out: URL[] = [];
  for (const name of ["https_proxy", "http_proxy", "all_proxy"]) {
    const raw = lookup(env, name);
    if (!raw) continue;
    try {
      out.push(parseProxy(name.toUpperCase(), raw));
    } catch {
      // not a usable proxy: the server refuses it at start with a clear message
    }
  }
  return out;
}

/**
 * Checks every proxy variable up front, so a bad value fails at start and not
 * in the middle of a reconnect.
 */
export function validateProxyEnv(env: ProxyEnv): void {
  for (const name of ["https_proxy", "http_proxy", "all_proxy"]) {
    const raw = lookup(env, name);
    if (raw) parseProxy(name.toUpperCase(), raw);
  }
}

/**
 * A proxy URL fit for status and logs: scheme, host and port, no credentials.
 *
 * @example
 * ```ts
 * import { describeProxy } from "./proxy.ts";
 * if (describeProxy(new URL("http://user:pw@proxy:3128/")) !== "http://proxy:3128") throw new Error();
 * ```
 */
export function describeProxy(proxy: URL): string {
  return `${proxy.protocol}//${proxy.host}`;
}

/** The axios `proxy` option for a target: an explicit proxy, or `false` for direct. */
export interface AxiosProxy {
  protocol: string;
  host: string;
  port: number;
  auth?: { username: string; password: string };
}

/**
 * Turns a resolved proxy into axios's `proxy` option. `false` stops axios from
 * applying its own environment rules, so REST and WS always agree.
 *
 * @example
 * ```ts
 * import { axiosProxy } from "./proxy.ts";
 * const p = axiosProxy(new URL("http://u:p%40ss@proxy:3128"));
 * if (p === false || p.port !== 3128 || p.auth?.password !== "p@ss") throw new Error();
 * if (axiosProxy(null) !== false) throw new Error();
 * ```
 */
export function axiosProxy(proxy: URL | null): AxiosProxy | false {
  if (!proxy) return false;
  const port = Number(proxy.port) || DEFAULT_PORTS[proxy.protocol] || 80;
  const out: AxiosProxy = {
    protocol: proxy.protocol.replace(/:$/, ""),
    host: proxy.hostname,
    port,
  };
  if (proxy.username || proxy.password) {
    out.auth = {
      username: decodeURIComponent(proxy.username),
      password: decodeURIComponent(proxy.password),
    };
  }
  return out;
}
