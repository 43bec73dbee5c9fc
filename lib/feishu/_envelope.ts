/**
 * What every REST call of {@link createFeishuApi} shares: running one SDK call
 * with its failure classified, checking Feishu's `{code, msg, data}` envelope,
 * and reading the SDK's streamed bodies and headers.
 * @module
 */

import type { ProviderFailure } from "./classify.ts";
import { classifyProviderFailure, classifyTransportFailure, isTokenUrl } from "./classify.ts";

/** Feishu's response envelope: `code` 0 (or absent) is success. */
export type Envelope = { code?: number; msg?: string; data?: unknown; [k: string]: unknown };

/** Reads a Node readable stream (the SDK's download / error body) to bytes. */
export async function readStream(stream: unknown): Promise<Uint8Array> {
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

/** Response headers as lower-case names with string values. */
export function plainHeaders(h: unknown): Record<string, string | undefined> {
  if (!h || typeof h !== "object") return {};
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(h as Record<string, unknown>)) {
    if (typeof v === "string" || typeof v === "number") out[k.toLowerCase()] = String(v);
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
    tokenRequest: isTokenUrl((err as { config?: { url?: unknown } })?.config?.url),
  });
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

/** Runs one SDK call as `operation`: one attempt, every failure classified. */
export async function attempt<T>(operation: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof Error && err.name === "BridgeError") throw err;
    throw await classifyThrown(operation, err);
  }
}

/**
 * Runs one SDK call whose body is an envelope: checks it, then hands it to
 * `read` (nothing is read when `read` is left out).
 */
export function enveloped(operation: string, request: () => Promise<unknown>): Promise<void>;
export function enveloped<T>(
  operation: string,
  request: () => Promise<unknown>,
  read: (res: Envelope) => T,
): Promise<T>;
export function enveloped<T>(
  operation: string,
  request: () => Promise<unknown>,
  read?: (res: Envelope) => T,
): Promise<T | void> {
  return attempt(operation, async () => {
    const res = ok(operation, await request() as Envelope);
    return read?.(res);
  });
}

/** `value` when it is a non-empty string; otherwise the classified `failure`. */
export function presentString(value: unknown, failure: ProviderFailure): string {
  if (typeof value === "string" && value !== "") return value;
  throw classifyProviderFailure(failure);
}

/** `v` when it is a non-empty string, else null. */
export function nonEmpty(v: unknown): string | null {
  return typeof v === "string" && v !== "" ? v : null;
}
