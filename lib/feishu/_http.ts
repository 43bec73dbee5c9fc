/**
 * The axios instance every node-sdk client of ours uses: the SDK's default
 * instance with a timeout on every request (the SDK has none) and the proxy
 * decided by our resolver (`proxy.ts`), never by axios's own environment rules.
 *
 * It is also the one counting point of the API quota: the REST client
 * (`client.ts`, token requests included: the SDK's token manager borrows the
 * client's instance) and the long connection's endpoint pull
 * (`ws/_sdk_client.ts`) both send every request through here, so a call is
 * counted once, when it is handed to axios, whatever made it.
 * @module
 */

import type { ApiCallCounter } from "../core/mod.ts";
import { lark } from "./_sdk.ts";
import { apiCategory } from "./category.ts";
import { axiosProxy, type ProxyEnv, proxyForUrl } from "./proxy.ts";

/** Options of {@link feishuHttp}. */
export interface FeishuHttpOptions {
  /** Per-request timeout unless the caller sets one. */
  timeoutMs: number;
  /** Where proxy variables come from. */
  env: ProxyEnv;
  /** Told the category of every request before it is sent. */
  onCall?: ApiCallCounter;
}

// deno-lint-ignore no-explicit-any
type Opts = any;

/** Wraps the SDK's axios instance with a timeout, our proxy decision and the call counter. */
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
  const count = (method: unknown, url: unknown, body?: unknown) => {
    if (!options.onCall) return;
    try {
      options.onCall(apiCategory(String(method ?? "GET"), String(url ?? ""), body));
    } catch {
      // counting is bookkeeping: it must never fail the call it counts
    }
  };
  return {
    request: (opts: Opts) => {
      count(opts?.method, opts?.url, opts?.data);
      return base.request(t(opts?.url, opts));
    },
    get: (url: string, opts?: Opts) => {
      count("GET", url);
      return base.get(url, t(url, opts));
    },
    delete: (url: string, opts?: Opts) => {
      count("DELETE", url);
      return base.delete(url, t(url, opts));
    },
    head: (url: string, opts?: Opts) => {
      count("HEAD", url);
      return base.head(url, t(url, opts));
    },
    options: (url: string, opts?: Opts) => {
      count("OPTIONS", url);
      return base.options(url, t(url, opts));
    },
    post: (url: string, data?: Opts, opts?: Opts) => {
      count("POST", url, data);
      return base.post(url, data, t(url, opts));
    },
    put: (url: string, data?: Opts, opts?: Opts) => {
      count("PUT", url, data);
      return base.put(url, data, t(url, opts));
    },
    patch: (url: string, data?: Opts, opts?: Opts) => {
      count("PATCH", url, data);
      return base.patch(url, data, t(url, opts));
    },
  } as lark.HttpInstance;
}
