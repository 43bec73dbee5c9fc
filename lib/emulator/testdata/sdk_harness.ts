/**
 * Test-only helpers that point the real node-sdk at an emulator: a Client
 * with its own token cache and a silent logger, and a WSClient started with
 * an EventDispatcher. Only test files import this module.
 * @module
 */

import * as lark from "@larksuiteoapi/node-sdk";
import { Buffer } from "node:buffer";
import type { Emulator } from "../emulator.ts";
import { DEFAULT_IDS } from "../fixtures.ts";

/** The Feishu code of an SDK call: its answer's, or a rejected call's (HTTP 4xx → AxiosError). */
export async function codeOf(p: Promise<unknown>): Promise<number | undefined> {
  try {
    const r = await p as { code?: number } | null;
    return r?.code;
  } catch (e) {
    return (e as { response?: { data?: { code?: number } } }).response?.data?.code;
  }
}

/** Every byte of a stream the SDK hands over (a download, or a refused download's JSON). */
export async function readAll(stream: AsyncIterable<Uint8Array | string>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const c of stream) {
    chunks.push(typeof c === "string" ? new TextEncoder().encode(c) : c);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

/**
 * The Feishu code of a refused download: the SDK rejects it and hands the
 * JSON answer over as a stream. Undefined when the download went through.
 */
export async function downloadRefusalCode(p: Promise<unknown>): Promise<number | undefined> {
  try {
    await p;
    return undefined;
  } catch (e) {
    const stream = (e as { response: { data: AsyncIterable<Uint8Array> } }).response.data;
    return JSON.parse(new TextDecoder().decode(await readAll(stream))).code;
  }
}

/** A logger that drops everything (the SDK's default prints to stdout). */
export const silentLogger = {
  error: () => {},
  warn: () => {},
  info: () => {},
  debug: () => {},
  trace: () => {},
};

// "hang" faults must fail fast instead of stalling a test forever.
lark.defaultHttpInstance.defaults.timeout = 3000;

/** A per-client token cache (the SDK's default cache is process-global). */
export function freshCache(): lark.Cache {
  const values = new Map<string, { value: unknown; expire?: number }>();
  // deno-lint-ignore ban-types
  const k = (key: string | Symbol, ns?: string) => `${ns ?? ""}/${String(key)}`;
  return {
    get: (key, options) => {
      const v = values.get(k(key, options?.namespace));
      return Promise.resolve(v && (!v.expire || v.expire > Date.now()) ? v.value : undefined);
    },
    set: (key, value, expire, options) => {
      values.set(k(key, options?.namespace), { value, expire });
      return Promise.resolve(true);
    },
  };
}

/** A node-sdk Client for the emulator's default app (or another app of its world). */
export function sdkClient(
  emu: Emulator,
  appSecret: string = DEFAULT_IDS.appSecret,
  appId: string = DEFAULT_IDS.appId,
): lark.Client {
  return new lark.Client({
    appId,
    appSecret,
    domain: emu.url,
    cache: freshCache(),
    logger: silentLogger,
    loggerLevel: lark.LoggerLevel.error,
  });
}

/** A started WSClient and what it saw. */
export interface WsHarness extends AsyncDisposable {
  ws: lark.WSClient;
  /** Handler inputs in arrival order, by event type. */
  seen: { type: string; data: Record<string, unknown> }[];
  /** Errors reported through `onError`. */
  errors: Error[];
  /** Resolves with the first `onError` error. */
  firstError: Promise<Error>;
  close(): void;
}

/**
 * Starts a WSClient with handlers; unknown types are still ACKed by the SDK.
 * `handlers` return values become ACK data.
 */
export function startWs(
  emu: Emulator,
  handlers: Record<string, (data: Record<string, unknown>) => unknown> = {},
  options: { appSecret?: string; autoReconnect?: boolean; pingTimeout?: number } = {},
): WsHarness {
  const seen: WsHarness["seen"] = [];
  const errors: Error[] = [];
  const first = Promise.withResolvers<Error>();
  const dispatcher = new lark.EventDispatcher({
    logger: silentLogger,
    loggerLevel: lark.LoggerLevel.error,
  });
  const wrapped: Record<string, (data: Record<string, unknown>) => unknown> = {};
  for (const [type, fn] of Object.entries(handlers)) {
    wrapped[type] = (data) => {
      seen.push({ type, data });
      return fn(data);
    };
  }
  dispatcher.register(wrapped as never);
  const ws = new lark.WSClient({
    appId: DEFAULT_IDS.appId,
    appSecret: options.appSecret ?? DEFAULT_IDS.appSecret,
    domain: emu.url,
    logger: silentLogger,
    loggerLevel: lark.LoggerLevel.error,
    autoReconnect: options.autoReconnect ?? true,
    onError: (e: Error) => {
      errors.push(e);
      first.resolve(e);
    },
    ...(options.pingTimeout ? { wsConfig: { pingTimeout: options.pingTimeout } } : {}),
  });
  void ws.start({ eventDispatcher: dispatcher });
  const close = () => ws.close({ force: true });
  return {
    ws,
    seen,
    errors,
    firstError: first.promise,
    close,
    [Symbol.asyncDispose]: () => Promise.resolve(close()),
  };
}

export { lark };
