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
 *
 * Message creates, replies and reaction adds never reuse a connection: Deno
 * 2.9.6 re-sends a POST it destroyed on a timeout when the socket was a
 * reused keep-alive one (denoland/deno#36786), so a timed-out create could
 * land twice behind our back (a reaction has no key to dedupe it at all).
 * On a fresh connection per request Deno has nothing to "retry"; the send
 * pipeline retries a chunk itself, under the same `uuid`.
 * @module
 */

import http from "node:http";
import https from "node:https";
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

/** Where the request timeout may be shortened (tests, slow links): milliseconds. */
export const REQUEST_TIMEOUT_ENV = "FEISHU_MCP_REQUEST_TIMEOUT_MS";

/**
 * The per-request timeout: {@link REQUEST_TIMEOUT_ENV} when it is a positive
 * integer, else `fallback`.
 *
 * @example
 * ```ts
 * import { requestTimeoutMs } from "./_http.ts";
 * if (requestTimeoutMs({ get: () => "1500" }, 30_000) !== 1500) throw new Error();
 * if (requestTimeoutMs({ get: () => "soon" }, 30_000) !== 30_000) throw new Error();
 * ```
 */
export function requestTimeoutMs(
  env: { get(name: string): string | undefined },
  fallback: number,
): number {
  const raw = env.get(REQUEST_TIMEOUT_ENV)?.trim();
  const n = raw ? Number(raw) : NaN;
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

/** POST of a message create, reply or reaction: the requests that must not reuse a connection. */
const MESSAGE_CREATE = /^\/open-apis\/im\/v1\/messages(\/[^/]+\/(reply|reactions))?\/?$/;

/**
 * True for a message create, reply or reaction add.
 *
 * @example
 * ```ts
 * import { isMessageCreate } from "./_http.ts";
 * if (!isMessageCreate("post", "https://open.feishu.cn/open-apis/im/v1/messages?receive_id_type=chat_id")) throw new Error();
 * if (!isMessageCreate("POST", "https://open.feishu.cn/open-apis/im/v1/messages/om_1/reply")) throw new Error();
 * if (!isMessageCreate("POST", "https://open.feishu.cn/open-apis/im/v1/messages/om_1/reactions")) throw new Error();
 * if (isMessageCreate("DELETE", "https://open.feishu.cn/open-apis/im/v1/messages/om_1/reactions")) throw new Error();
 * if (isMessageCreate("POST", "https://open.feishu.cn/open-apis/im/v1/images")) throw new Error();
 * ```
 */
export function isMessageCreate(method: unknown, url: unknown): boolean {
  if (String(method ?? "").toUpperCase() !== "POST" || typeof url !== "string") return false;
  try {
    return MESSAGE_CREATE.test(new URL(url, "http://x").pathname);
  } catch {
    return false;
  }
}

// One socket per request: the proxy option still decides where it connects.
const freshHttp = new http.Agent({ keepAlive: false });
const freshHttps = new https.Agent({ keepAlive: false });

/** Wraps the SDK's axios instance with a timeout, our proxy decision and the call counter. */
export function feishuHttp(options: FeishuHttpOptions): lark.HttpInstance {
  const base = lark.defaultHttpInstance;
  const t = (url: unknown, o?: Opts, method?: unknown): Opts => {
    const target = typeof url === "string" && /^https?:\/\//.test(url) ? url : undefined;
    const fresh = isMessageCreate(method ?? o?.method, url)
      ? { httpAgent: freshHttp, httpsAgent: freshHttps }
      : {};
    return {
      ...(o ?? {}),
      ...fresh,
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
      return base.post(url, data, t(url, opts, "POST"));
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
