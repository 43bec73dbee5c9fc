/**
 * The canary's own Open API probe: one `fetch` per call with a deadline on
 * the injected clock, answering Feishu's code, message, body and the
 * `x-tt-logid` header (the id Feishu support asks for). The token, bot and
 * scope checks use it instead of the bridge's SDK client because they need
 * exactly those raw facts; the DM and the card go through the bridge's own
 * client. Deno's `fetch` honours `HTTPS_PROXY`/`NO_PROXY` as the bridge does.
 * @module
 */

import type { Clock } from "../core/mod.ts";

/** What one call answered. */
export interface RestAnswer {
  httpStatus: number;
  /** Feishu's `code`, or null when the body was not a JSON envelope. */
  code: number | null;
  msg: string | null;
  body: Record<string, unknown>;
  /** The `x-tt-logid` response header, when Feishu sent one. */
  logId: string | null;
}

/** One request. */
export interface RestRequest {
  baseUrl: string;
  method: "GET" | "POST";
  path: string;
  /** A tenant token for `Authorization: Bearer`. */
  token?: string;
  body?: unknown;
  timeoutMs: number;
}

/** What the probe needs from outside. */
export interface RestDeps {
  fetch: typeof fetch;
  clock: Clock;
}

/**
 * Makes one call. Throws an `Error` whose message names the host (never the
 * token) when the network fails or the deadline passes.
 */
export async function callFeishu(deps: RestDeps, req: RestRequest): Promise<RestAnswer> {
  const url = `${req.baseUrl}${req.path}`;
  const host = new URL(url).host;
  const abort = new AbortController();
  const stopTimer = new AbortController();
  const timer = deps.clock.sleep(req.timeoutMs, stopTimer.signal).then(
    () => abort.abort(new Error(`no answer from ${host} within ${req.timeoutMs / 1000} s`)),
    () => {/* the call ended first */},
  );
  try {
    const headers: Record<string, string> = { "content-type": "application/json; charset=utf-8" };
    if (req.token) headers.authorization = `Bearer ${req.token}`;
    const res = await deps.fetch(url, {
      method: req.method,
      headers,
      body: req.body === undefined ? undefined : JSON.stringify(req.body),
      signal: abort.signal,
    });
    const text = await res.text();
    let body: Record<string, unknown> = {};
    try {
      const parsed = JSON.parse(text);
      if (parsed && typeof parsed === "object") body = parsed as Record<string, unknown>;
    } catch {
      // A gateway page or an empty body: the HTTP status is all there is.
    }
    return {
      httpStatus: res.status,
      code: typeof body.code === "number" ? body.code : null,
      msg: typeof body.msg === "string" ? body.msg : null,
      body,
      logId: res.headers.get("x-tt-logid"),
    };
  } catch (err) {
    const why = abort.signal.aborted
      ? (abort.signal.reason as Error).message
      : `${host} unreachable: ${(err as Error).message}`;
    throw new Error(why, { cause: err });
  } finally {
    stopTimer.abort();
    await timer;
  }
}

/** `code N (msg)`, or the HTTP status when the answer had no envelope. */
export function describeAnswer(a: RestAnswer): string {
  if (a.code === null) return `HTTP ${a.httpStatus} without a Feishu envelope`;
  return a.msg ? `code ${a.code} (${a.msg})` : `code ${a.code}`;
}

/** The evidence every REST check reports. */
export function restEvidence(a: RestAnswer): Record<string, string | number> {
  return {
    http_status: a.httpStatus,
    ...(a.code !== null ? { code: a.code } : {}),
    ...(a.logId ? { log_id: a.logId } : {}),
  };
}
