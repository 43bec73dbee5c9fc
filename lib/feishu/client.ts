/**
 * The node-sdk implementation of {@link FeishuApi}: one `lark.Client` per
 * account with its own token cache, our stderr logger, an HTTP timeout on
 * every call, the proxy environment (`proxy.ts`), no retries but the one
 * after a refused token (`token_guard.ts`), and every failure classified.
 * The message calls live in `_messages.ts`, the reaction and media calls in
 * `_media_calls.ts`, the lookups here.
 * @module
 */

import type { ApiCallCounter, Logger } from "../core/mod.ts";
import { enveloped, nonEmpty, presentString } from "./_envelope.ts";
import { feishuHttp, requestTimeoutMs } from "./_http.ts";
import { mediaCalls } from "./_media_calls.ts";
import { messageCalls } from "./_messages.ts";
import { pathSegment } from "./_path.ts";
import { lark } from "./_sdk.ts";
import type { FeishuApi } from "./api.ts";
import { processProxyEnv, type ProxyEnv, validateProxyEnv } from "./proxy.ts";
import { sdkLogger } from "./sdk_logger.ts";
import { createTokenGuard, type TokenGuard } from "./token_guard.ts";

export { fileNameFromDisposition } from "./_media_calls.ts";

/** Options of {@link createFeishuApi}. */
export interface FeishuApiOptions {
  alias: string;
  appId: string;
  appSecret: string;
  /** Base URL without trailing slash. */
  baseUrl: string;
  log: Logger;
  /** Per-request timeout; the SDK has none by default (30 s, or `FEISHU_MCP_REQUEST_TIMEOUT_MS`). */
  timeoutMs?: number;
  /** Proxy variables (`HTTPS_PROXY`, `NO_PROXY`, …); default: the process environment. */
  proxyEnv?: ProxyEnv;
  /** Told of every HTTP request this client sends, token requests included (quota). */
  onCall?: ApiCallCounter;
}

/**
 * A Map-backed cache so tokens are per client, not process-global; `clear`
 * drops the token Feishu refused.
 */
function ownCache(): lark.Cache & { clear(): void } {
  const m = new Map<string, { value: unknown; expire: number }>();
  const k = (key: unknown, ns?: string) => `${ns ?? ""}\u0000${String(key)}`;
  return {
    clear: () => m.clear(),
    get: (key, opts) => {
      const e = m.get(k(key, opts?.namespace));
      if (!e) return Promise.resolve(undefined);
      if (e.expire && e.expire < Date.now()) {
        m.delete(k(key, opts?.namespace));
        return Promise.resolve(undefined);
      }
      return Promise.resolve(e.value);
    },
    set: (key, value, expire, opts) => {
      m.set(k(key, opts?.namespace), { value, expire: expire ?? 0 });
      return Promise.resolve(true);
    },
  };
}

/**
 * Builds the Feishu API of one account.
 */
export function createFeishuApi(options: FeishuApiOptions): FeishuApi {
  validateProxyEnv(options.proxyEnv ?? processProxyEnv);
  const cache = ownCache();
  const guard = createTokenGuard({
    dropToken: () => cache.clear(),
    now: () => Date.now(),
    onRefresh: (reason) =>
      options.log.warn("tenant token refused; fetching a new one", {
        account: options.alias,
        error: reason,
      }),
  });
  const client = new lark.Client({
    appId: options.appId,
    appSecret: options.appSecret,
    domain: options.baseUrl,
    logger: sdkLogger(options.log, `[sdk:${options.alias}]`),
    loggerLevel: lark.LoggerLevel.warn,
    cache,
    httpInstance: feishuHttp({
      timeoutMs: options.timeoutMs ?? requestTimeoutMs(processProxyEnv, 30_000),
      env: options.proxyEnv ?? processProxyEnv,
      onCall: options.onCall,
    }),
  });
  const im = client.im.v1;

  return guarded(guard, {
    alias: options.alias,
    appId: options.appId,
    ...messageCalls(im),
    ...mediaCalls(client, im),

    botInfo: () =>
      enveloped(
        "bot_info",
        () => client.request({ method: "GET", url: "/open-apis/bot/v3/info" }),
        (res) => {
          const bot = res.bot as { open_id?: unknown; app_name?: unknown } | undefined;
          return {
            openId: presentString(bot?.open_id, {
              operation: "bot_info",
              msg: "bot/v3/info returned no open_id",
            }),
            name: typeof bot?.app_name === "string" ? bot.app_name : null,
          };
        },
      ),

    appInfo: () =>
      enveloped("app_info", () =>
        client.request({
          method: "GET",
          url: `/open-apis/application/v6/applications/${pathSegment("app_id", options.appId)}`,
          params: { lang: "zh_cn" },
        }), (res) => {
        const app = (res.data as { app?: Record<string, unknown> } | undefined)?.app ?? {};
        return {
          name: nonEmpty(app.app_name),
          openId: nonEmpty(app.bot_open_id) ?? nonEmpty(app.open_id),
        };
      }),

    userName: (openId) =>
      enveloped("user_info", () =>
        client.contact.v3.user.get({
          path: { user_id: pathSegment("open_id", openId) },
          params: { user_id_type: "open_id" },
        }), (res) => nonEmpty((res.data as { user?: { name?: unknown } } | undefined)?.user?.name)),

    listChats: (req) =>
      enveloped("list_chats", () =>
        im.chat.list({
          params: {
            sort_type: req.order === "active" ? "ByActiveTimeDesc" : "ByCreateTimeAsc",
            page_size: Math.min(req.pageSize ?? 100, 100),
            page_token: req.pageToken,
          },
        }), (res) => {
        const d = (res.data ?? {}) as {
          items?: { chat_id?: unknown; name?: unknown }[];
          has_more?: boolean;
          page_token?: string;
        };
        return {
          items: (d.items ?? []).flatMap((c) => {
            const chatId = nonEmpty(c.chat_id);
            return chatId ? [{ chatId, name: nonEmpty(c.name) }] : [];
          }),
          hasMore: d.has_more === true,
          pageToken: d.page_token || null,
        };
      }),

    chatInfo: (chatId) =>
      enveloped(
        "chat_info",
        () => im.chat.get({ path: { chat_id: pathSegment("chat_id", chatId) } }),
        (res) => {
          const d = (res.data ?? {}) as { name?: unknown; chat_mode?: unknown };
          return {
            name: typeof d.name === "string" ? d.name : null,
            chatMode: typeof d.chat_mode === "string" ? d.chat_mode : null,
          };
        },
      ),
  });
}

/** Every call of `api` run through the guard; `auth` reports its state. */
function guarded(guard: TokenGuard, api: Omit<FeishuApi, "auth">): FeishuApi {
  const out: Record<string, unknown> = { auth: () => guard.status() };
  for (const [name, value] of Object.entries(api)) {
    if (typeof value !== "function") {
      out[name] = value;
      continue;
    }
    const call = value as (...args: unknown[]) => Promise<unknown>;
    out[name] = (...args: unknown[]) => guard.run(() => call(...args));
  }
  return out as unknown as FeishuApi;
}
