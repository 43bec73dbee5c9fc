/**
 * Feishu's JSON envelopes: `{code, msg, data}` on success and the error
 * envelope, which carries `error.log_id` and `error.troubleshooter`.
 * @module
 */

import { ID_PREFIX } from "../ids.ts";
import type { Core } from "../core.ts";

/** A business or gateway error a route answers with. */
export class ApiError extends Error {
  /** Feishu's numeric code. */
  readonly code: number;
  /** HTTP status (400 for business errors). */
  readonly status: number;
  /** Extra response headers (rate-limit headers). */
  readonly headers: Record<string, string>;

  /** Builds an error; `status` defaults to 400. */
  constructor(
    code: number,
    msg: string,
    options: { status?: number; headers?: Record<string, string> } = {},
  ) {
    super(msg);
    this.name = "ApiError";
    this.code = code;
    this.status = options.status ?? 400;
    this.headers = options.headers ?? {};
  }
}

/** A JSON response. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

/**
 * `{code:0, msg:"success", data}`.
 *
 * @example
 * ```ts
 * import { ok } from "./_envelope.ts";
 * const body = await ok({ a: 1 }).json();
 * if (body.code !== 0 || body.data.a !== 1) throw new Error();
 * ```
 */
export function ok(data: unknown = {}): Response {
  return json({ code: 0, msg: "success", data });
}

/** The error envelope for `code`/`msg` with a deterministic log id. */
export function errorResponse(
  core: Core,
  error: { code: number; message: string; status: number; headers?: Record<string, string> },
): Response {
  const logId = core.ids.next(ID_PREFIX.log);
  const body = {
    code: error.code,
    msg: error.message,
    error: {
      log_id: logId,
      troubleshooter:
        `https://open.feishu.cn/search?from=openapi&log_id=${logId}&code=${error.code}&method_id=0`,
    },
  };
  return json(body, error.status, { "x-tt-logid": logId, ...error.headers });
}
