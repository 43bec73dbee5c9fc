/**
 * The axios instance every node-sdk client of ours uses: the SDK's default
 * instance with a timeout on every request (the SDK has none) and the proxy
 * decided by our resolver (`proxy.ts`), never by axios's own environment rules.
 * @module
 */

import { lark } from "./_sdk.ts";
import { axiosProxy, type ProxyEnv, proxyForUrl } from "./proxy.ts";

/** Options of {@link feishuHttp}. */
export interface FeishuHttpOptions {
  /** Per-request timeout unless the caller sets one. */
  timeoutMs: number;
  /** Where proxy variables come from. */
  env: ProxyEnv;
}

// deno-lint-ignore no-explicit-any
type Opts = any;

/** Wraps the SDK's axios instance with a timeout and our proxy decision. */
export function feishuHttp(options: FeishuHttpOptions): lark.HttpInstance {
  const base = lark.defaultHttpInstance;
  const t = (url: unknown, o?: Opts): Opts => {
    const target = typeof url === "string" && /^https?:\/\//.test(url) ? url : undefined;
    return {
      ...(o ?? {}),
      timeout: o?.timeout ?? options.timeoutMs,
      proxy: target ? axiosProxy(proxyForUrl(target, options.env)) : false,
    };
  };
  return {
    request: (opts: Opts) => base.request(t(opts?.url, opts)),
    get: (url: string, opts?: Opts) => base.get(url, t(url, opts)),
    delete: (url: string, opts?: Opts) => base.delete(url, t(url, opts)),
    head: (url: string, opts?: Opts) => base.head(url, t(url, opts)),
    options: (url: string, opts?: Opts) => base.options(url, t(url, opts)),
    post: (url: string, data?: Opts, opts?: Opts) => base.post(url, data, t(url, opts)),
    put: (url: string, data?: Opts, opts?: Opts) => base.put(url, data, t(url, opts)),
    patch: (url: string, data?: Opts, opts?: Opts) => base.patch(url, data, t(url, opts)),
  } as lark.HttpInstance;
}
