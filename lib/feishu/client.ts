/**
 * The node-sdk implementation of {@link FeishuApi}: one `lark.Client` per
 * account with its own token cache, our stderr logger, an HTTP timeout on
 * every call, the proxy environment (`proxy.ts`), no retries, and every
 * failure classified.
 * @module
 */

import { Buffer } from "node:buffer";
import type { Logger } from "../core/mod.ts";
import { feishuHttp } from "./_http.ts";
import { lark } from "./_sdk.ts";
import type { FeishuApi, FeishuMessage, ReceiveIdType } from "./api.ts";
import { classifyProviderFailure, classifyTransportFailure } from "./classify.ts";
import { processProxyEnv, type ProxyEnv, validateProxyEnv } from "./proxy.ts";
import { sdkLogger } from "./sdk_logger.ts";

/** Options of {@link createFeishuApi}. */
export interface FeishuApiOptions {
  alias: string;
  appId: string;
  appSecret: string;
  /** Base URL without trailing slash. */
  baseUrl: string;
  log: Logger;
  /** Per-request timeout; the SDK has none by default. */
  timeoutMs?: number;
  /** Proxy variables (`HTTPS_PROXY`, `NO_PROXY`, …); default: the process environment. */
  proxyEnv?: ProxyEnv;
}

type Envelope = { code?: number; msg?: string; data?: unknown; [k: string]: unknown };

/** A Map-backed cache so tokens are per client, not process-global. */
function ownCache(): lark.Cache {
  const m = new Map<string, { value: unknown; expire: number }>();
  const k = (key: unknown, ns?: string) => `${ns ?? ""}\u0000${String(key)}`;
  return {
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

/** Reads a Node readable stream (the SDK's download / error body) to bytes. */
async function readStream(stream: unknown): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const c of stream as AsyncIterable<Uint8Array | string>) {
    chunks.push(typeof c === "string" ? new TextEncoder().encode(c) : new Uint8Array(c));
  }
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let off = 0;
  for (const c of chunks) {
    out.set(c, off);
    off += c.length;
  }
  return out;
}

/** Turns an SDK throw (AxiosError or other) into a classified BridgeError. */
async function classifyThrown(operation: string, err: unknown): Promise<Error> {
  const resp =
    (err as { response?: { status?: number; data?: unknown; headers?: Record<string, string> } })
      ?.response;
  if (!resp) return classifyTransportFailure(operation, err);
  let body = resp.data as Envelope | undefined;
  if (body && typeof (body as { pipe?: unknown }).pipe === "function") {
    try {
      body = JSON.parse(new TextDecoder().decode(await readStream(body)));
    } catch {
      body = undefined; // a non-JSON error body: classify by HTTP status alone
    }
  }
  return classifyProviderFailure({
    operation,
    httpStatus: resp.status ?? null,
    code: typeof body?.code === "number" ? body.code : null,
    msg: typeof body?.msg === "string" ? body.msg : null,
    headers: plainHeaders(resp.headers),
    detail: (body as { error?: unknown } | undefined)?.error,
  });
}

function plainHeaders(h: unknown): Record<string, string | undefined> {
  if (!h || typeof h !== "object") return {};
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(h as Record<string, unknown>)) {
    if (typeof v === "string" || typeof v === "number") out[k.toLowerCase()] = String(v);
  }
  return out;
}

/** Checks a 2xx envelope: code 0 is success, anything else a classified failure. */
function ok(operation: string, body: Envelope | null | undefined): Envelope {
  if (body && (body.code === 0 || body.code === undefined)) return body;
  throw classifyProviderFailure({
    operation,
    httpStatus: 200,
    code: typeof body?.code === "number" ? body.code : null,
    msg: typeof body?.msg === "string" ? body.msg : "empty response",
  });
}

function toMessage(raw: Record<string, unknown> | undefined | null): FeishuMessage {
  const r = raw ?? {};
  const s = (v: unknown) => typeof v === "string" && v !== "" ? v : null;
  const body = r.body as { content?: unknown } | undefined;
  const ct = Number(r.create_time);
  return {
    messageId: String(r.message_id ?? ""),
    chatId: String(r.chat_id ?? ""),
    threadId: s(r.thread_id),
    rootId: s(r.root_id),
    parentId: s(r.parent_id),
    msgType: String(r.msg_type ?? ""),
    createTime: Number.isFinite(ct) && ct > 0 ? ct : null,
    content: typeof body?.content === "string" ? body.content : null,
    deleted: r.deleted === true,
    sender: (r.sender as Record<string, unknown>) ?? null,
    raw: r,
  };
}

/**
 * Builds the Feishu API of one account.
 */
export function createFeishuApi(options: FeishuApiOptions): FeishuApi {
  validateProxyEnv(options.proxyEnv ?? processProxyEnv);
  const client = new lark.Client({
    appId: options.appId,
    appSecret: options.appSecret,
    domain: options.baseUrl,
    logger: sdkLogger(options.log, `[sdk:${options.alias}]`),
    loggerLevel: lark.LoggerLevel.warn,
    cache: ownCache(),
    httpInstance: feishuHttp({
      timeoutMs: options.timeoutMs ?? 30_000,
      env: options.proxyEnv ?? processProxyEnv,
    }),
  });
  const call = async <T>(operation: string, fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof Error && err.name === "BridgeError") throw err;
      throw await classifyThrown(operation, err);
    }
  };
  const im = client.im.v1;

  return {
    alias: options.alias,
    appId: options.appId,

    createMessage: (req) =>
      call("send", async () => {
        const res = ok(
          "send",
          await im.message.create({
            params: { receive_id_type: req.receiveIdType as ReceiveIdType },
            data: {
              receive_id: req.receiveId,
              msg_type: req.msgType,
              content: req.content,
              uuid: req.uuid,
            },
          }) as Envelope,
        );
        return toMessage(res.data as Record<string, unknown>);
      }),

    replyMessage: (req) =>
      call("reply", async () => {
        const res = ok(
          "reply",
          await im.message.reply({
            path: { message_id: req.messageId },
            data: {
              msg_type: req.msgType,
              content: req.content,
              reply_in_thread: req.replyInThread,
              uuid: req.uuid,
            },
          }) as Envelope,
        );
        return toMessage(res.data as Record<string, unknown>);
      }),

    updateMessage: (req) =>
      call("update_message", async () => {
        ok(
          "update_message",
          await im.message.update({
            path: { message_id: req.messageId },
            data: { msg_type: req.msgType, content: req.content },
          }) as Envelope,
        );
      }),

    patchMessage: (req) =>
      call("update_card", async () => {
        ok(
          "update_card",
          await im.message.patch({
            path: { message_id: req.messageId },
            data: { content: req.content },
          }) as Envelope,
        );
      }),

    deleteMessage: (messageId) =>
      call("delete_message", async () => {
        ok(
          "delete_message",
          await im.message.delete({ path: { message_id: messageId } }) as Envelope,
        );
      }),

    getMessage: (messageId) =>
      call("get_message", async () => {
        const res = ok(
          "get_message",
          await im.message.get({ path: { message_id: messageId } }) as Envelope,
        );
        const item = (res.data as { items?: Record<string, unknown>[] } | undefined)?.items?.[0];
        return item ? toMessage(item) : null;
      }),

    addReaction: (messageId, emojiType) =>
      call("add_reaction", async () => {
        const res = ok(
          "add_reaction",
          await im.messageReaction.create({
            path: { message_id: messageId },
            data: { reaction_type: { emoji_type: emojiType } },
          }) as Envelope,
        );
        const id = (res.data as { reaction_id?: unknown } | undefined)?.reaction_id;
        if (typeof id !== "string" || id === "") {
          throw classifyProviderFailure({
            operation: "add_reaction",
            code: 0,
            msg: "Feishu add_reaction succeeded without a reaction_id",
          });
        }
        return id;
      }),

    removeReaction: (messageId, reactionId) =>
      call("remove_reaction", async () => {
        ok(
          "remove_reaction",
          await im.messageReaction.delete({
            path: { message_id: messageId, reaction_id: reactionId },
          }) as Envelope,
        );
      }),

    listReactions: (messageId, emojiType) =>
      call("list_reactions", async () => {
        const res = ok(
          "list_reactions",
          await im.messageReaction.list({
            path: { message_id: messageId },
            params: { reaction_type: emojiType, page_size: 50 },
          }) as Envelope,
        );
        const items = (res.data as { items?: Record<string, unknown>[] } | undefined)?.items ?? [];
        return items.map((r) => {
          const op = (r.operator ?? {}) as Record<string, unknown>;
          const type = (r.reaction_type ?? {}) as Record<string, unknown>;
          return {
            reactionId: String(r.reaction_id ?? ""),
            emojiType: String(type.emoji_type ?? ""),
            operatorType: String(op.operator_type ?? ""),
            operatorId: String(op.operator_id ?? ""),
          };
        });
      }),

    uploadImage: (bytes) =>
      call("upload_image", async () => {
        const data = await im.image.create({
          data: { image_type: "message", image: Buffer.from(bytes) },
        });
        const key = (data as { image_key?: unknown } | null)?.image_key;
        if (typeof key !== "string" || key === "") {
          throw classifyProviderFailure({
            operation: "upload_image",
            msg: "upload response has no image_key",
          });
        }
        return key;
      }),

    uploadFile: (req) =>
      call("upload_file", async () => {
        const data = await im.file.create({
          data: {
            file_type: req.fileType,
            file_name: req.fileName,
            duration: req.durationMs,
            file: Buffer.from(req.bytes),
          },
        });
        const key = (data as { file_key?: unknown } | null)?.file_key;
        if (typeof key !== "string" || key === "") {
          throw classifyProviderFailure({
            operation: "upload_file",
            msg: "upload response has no file_key",
          });
        }
        return key;
      }),

    downloadResource: (messageId, fileKey, type, opts = {}) =>
      call("download_resource", async () => {
        // The generic request (not `im.messageResource.get`) so the download can be
        // aborted: a shutdown must not wait for a large or stalled file.
        const request = {
          method: "GET" as const,
          url: `/open-apis/im/v1/messages/${encodeURIComponent(messageId)}/resources/${
            encodeURIComponent(fileKey)
          }`,
          params: { type },
          responseType: "stream" as const,
          signal: opts.signal,
          // The SDK's response interceptor then returns the headers with the body.
          $return_headers: true,
        };
        const res = await client.request(request) as { data: unknown; headers: unknown };
        const bytes = await readStream(res.data);
        const headers = plainHeaders(res.headers);
        return {
          bytes,
          fileName: fileNameFromDisposition(headers["content-disposition"]),
          contentType: headers["content-type"] ?? null,
        };
      }),

    listMessages: (req) =>
      call("list_messages", async () => {
        const res = ok(
          "list_messages",
          await im.message.list({
            params: {
              container_id_type: req.containerIdType,
              container_id: req.containerId,
              start_time: req.startTimeMs === undefined
                ? undefined
                : String(Math.floor(req.startTimeMs / 1000)),
              end_time: req.endTimeMs === undefined
                ? undefined
                : String(Math.ceil(req.endTimeMs / 1000)),
              sort_type: req.order === "desc" ? "ByCreateTimeDesc" : "ByCreateTimeAsc",
              page_size: req.pageSize ?? 50,
              page_token: req.pageToken,
            },
          }) as Envelope,
        );
        const d = (res.data ?? {}) as {
          items?: Record<string, unknown>[];
          has_more?: boolean;
          page_token?: string;
        };
        return {
          items: (d.items ?? []).map(toMessage),
          hasMore: d.has_more === true,
          pageToken: d.page_token || null,
        };
      }),

    botInfo: () =>
      call("bot_info", async () => {
        const res = ok(
          "bot_info",
          await client.request({ method: "GET", url: "/open-apis/bot/v3/info" }) as Envelope,
        );
        const bot = res.bot as { open_id?: unknown; app_name?: unknown } | undefined;
        if (typeof bot?.open_id !== "string" || bot.open_id === "") {
          throw classifyProviderFailure({
            operation: "bot_info",
            msg: "bot/v3/info returned no open_id",
          });
        }
        return {
          openId: bot.open_id,
          name: typeof bot.app_name === "string" ? bot.app_name : null,
        };
      }),

    appInfo: () =>
      call("app_info", async () => {
        const res = ok(
          "app_info",
          await client.request({
            method: "GET",
            url: `/open-apis/application/v6/applications/${encodeURIComponent(options.appId)}`,
            params: { lang: "zh_cn" },
          }) as Envelope,
        );
        const app = (res.data as { app?: Record<string, unknown> } | undefined)?.app ?? {};
        const s = (v: unknown) => typeof v === "string" && v !== "" ? v : null;
        return { name: s(app.app_name), openId: s(app.bot_open_id) ?? s(app.open_id) };
      }),

    userName: (openId) =>
      call("user_info", async () => {
        const res = ok(
          "user_info",
          await client.contact.v3.user.get({
            path: { user_id: openId },
            params: { user_id_type: "open_id" },
          }) as Envelope,
        );
        const name = (res.data as { user?: { name?: unknown } } | undefined)?.user?.name;
        return typeof name === "string" && name !== "" ? name : null;
      }),

    chatInfo: (chatId) =>
      call("chat_info", async () => {
        const res = ok("chat_info", await im.chat.get({ path: { chat_id: chatId } }) as Envelope);
        const d = (res.data ?? {}) as { name?: unknown; chat_mode?: unknown };
        return {
          name: typeof d.name === "string" ? d.name : null,
          chatMode: typeof d.chat_mode === "string" ? d.chat_mode : null,
        };
      }),
  };
}

/**
 * The file name from a `content-disposition` header, if any.
 *
 * @example
 * ```ts
 * import { fileNameFromDisposition } from "./client.ts";
 * if (fileNameFromDisposition('attachment; filename="a b.pdf"') !== "a b.pdf") throw new Error();
 * if (fileNameFromDisposition("attachment; filename*=UTF-8''%E6%96%87.txt") !== "文.txt") throw new Error();
 * if (fileNameFromDisposition('attachment; filename="..%2Fa%20b.mp4"') !== "../a b.mp4") throw new Error();
 * if (fileNameFromDisposition('attachment; filename="100%.txt"') !== "100%.txt") throw new Error();
 * ```
 */
export function fileNameFromDisposition(header: string | undefined): string | null {
  if (!header) return null;
  const star = header.match(/filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      // malformed percent-encoding: fall back to the plain filename parameter below
    }
  }
  const plain = header.match(/filename\s*=\s*"([^"]*)"/) ?? header.match(/filename\s*=\s*([^;]+)/);
  const name = plain?.[1]?.trim();
  return name ? percentDecoded(name) : null;
}

/** A plain `filename` that carries percent-escapes (as Feishu sends non-ASCII names), decoded. */
function percentDecoded(name: string): string {
  if (!/%[0-9A-Fa-f]{2}/.test(name)) return name;
  try {
    return decodeURIComponent(name);
  } catch {
    return name; // not valid percent-encoding: the name is literal
  }
}
