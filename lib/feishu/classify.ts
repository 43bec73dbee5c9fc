/**
 * The one place that maps Feishu responses (business code, HTTP status,
 * headers, message) to our error codes.
 * @module
 */

import { BridgeError, type ErrorCode } from "../core/mod.ts";

/**
 * Codes of a request refused for its access token (missing, malformed,
 * invalid, expired or revoked): Feishu's generic auth codes.
 */
export const TOKEN_REJECTED_CODES: readonly number[] = [
  99991661,
  99991663,
  99991664,
  99991665,
  99991666,
  99991668,
  99991671,
];

/** One row of the classification table. */
interface Rule {
  codes: readonly number[];
  code: ErrorCode;
  retryable: boolean;
}

/** Rows checked in order; the first that lists the provider code wins. */
export const PROVIDER_CODE_TABLE: readonly Rule[] = [
  // Rate limits: app-wide (HTTP 429), per chat, tenant-wide, and the SDK's legacy ones.
  {
    codes: [99991400, 230020, 11232, 99991402, 11020, 11021],
    code: "RATE_LIMITED",
    retryable: true,
  },
  // Token invalid or expired: a fresh token fixes it (`token_guard.ts` fetches one).
  {
    codes: TOKEN_REJECTED_CODES,
    code: "PERMISSION_DENIED",
    retryable: true,
  },
  // The target message or chat is gone, or the bot is not in the chat.
  {
    codes: [230011, 231003, 99992354, 230002, 230005, 230019, 230045, 230050],
    code: "TARGET_REVOKED",
    retryable: false,
  },
  // The content was refused.
  {
    codes: [230001, 230025, 230099, 230021, 230022, 230072, 230028, 230055, 231001, 99992402],
    code: "FORMAT_ERROR",
    retryable: false,
  },
  // Missing scopes, availability, group settings, ownership; and credentials the
  // token endpoint refuses (10014: the app secret is wrong), which no retry fixes.
  {
    codes: [
      10014,
      99991672,
      99991679,
      99991401,
      99991680,
      99991681,
      99991403,
      230003,
      230006,
      230010,
      230012,
      230013,
      230017,
      230018,
      230027,
      230029,
      230035,
      230038,
      230053,
      231002,
    ],
    code: "PERMISSION_DENIED",
    retryable: false,
  },
];

/** What a failed Feishu call told us. */
export interface ProviderFailure {
  /** Our name of the operation, e.g. `send`, `add_reaction`, `upload_image`. */
  operation: string;
  httpStatus?: number | null;
  code?: number | null;
  msg?: string | null;
  headers?: Record<string, string | undefined> | null;
  /** `error.permission_violations` or similar details from the envelope. */
  detail?: unknown;
  /** True when it was the SDK's token request (`auth/v3/tenant_access_token`) that failed. */
  tokenRequest?: boolean;
}

/** Failures of the token request itself (see {@link isTokenRequestFailure}). */
const tokenRequestFailures = new WeakSet<BridgeError>();

/**
 * True when a call failed because no tenant token could be fetched (the
 * token endpoint refused or was unreachable), not because of the call itself.
 */
export function isTokenRequestFailure(err: unknown): boolean {
  return err instanceof BridgeError && tokenRequestFailures.has(err);
}

/**
 * True when Feishu refused a call for its access token
 * ({@link TOKEN_REJECTED_CODES}).
 */
export function isTokenRejection(err: unknown): boolean {
  const code = err instanceof BridgeError ? err.context.providerCode : undefined;
  return code !== undefined && TOKEN_REJECTED_CODES.includes(code);
}

/** The path of the SDK's tenant token request. */
const TOKEN_PATH = "/open-apis/auth/v3/tenant_access_token";

/** True when `url` is the token request. */
export function isTokenUrl(url: unknown): boolean {
  return typeof url === "string" && url.includes(TOKEN_PATH);
}

/** Marks `err` as a token request failure and returns it. */
function tokenRequestFailure(err: BridgeError): BridgeError {
  tokenRequestFailures.add(err);
  return err;
}

/** Operations that are uploads or downloads get their own fallback codes. */
const UPLOADS = new Set(["upload_image", "upload_file"]);
const DOWNLOADS = new Set(["download_resource"]);

/**
 * Classifies a failed Feishu call.
 *
 * @example Rate limit with a reset header
 * ```ts
 * import { classifyProviderFailure } from "./classify.ts";
 * const e = classifyProviderFailure({
 *   operation: "send", httpStatus: 429, code: 99991400, msg: "too many",
 *   headers: { "x-ogw-ratelimit-reset": "3" },
 * });
 * if (e.code !== "RATE_LIMITED" || !e.retryable || e.retryAfterSeconds !== 3) throw new Error();
 * ```
 */
export function classifyProviderFailure(f: ProviderFailure): BridgeError {
  if (!f.tokenRequest) return classifyCall(f);
  // The token endpoint's refusal: wrong credentials (10014…) are final, like any permission error.
  const e = classifyCall({ ...f, msg: `token request refused: ${(f.msg ?? "").trim() || "?"}` });
  return tokenRequestFailure(e);
}

function classifyCall(f: ProviderFailure): BridgeError {
  const code = typeof f.code === "number" && Number.isFinite(f.code) ? f.code : null;
  const msg = (f.msg ?? "").trim() || "Feishu API request failed";
  const text = `Feishu ${f.operation} failed: code=${code ?? 0} msg=${msg}`;
  const retryAfter = retryAfterSeconds(f.headers);
  const context = {
    operation: f.operation,
    providerCode: code ?? undefined,
    httpStatus: f.httpStatus ?? undefined,
  };

  let rule: { code: ErrorCode; retryable: boolean } | undefined = code === null
    ? undefined
    : PROVIDER_CODE_TABLE.find((r) => r.codes.includes(code));
  if (
    !rule && code !== null && ((code >= 500 && code <= 599) || (code >= 50000 && code <= 59999))
  ) {
    rule = { code: "UNKNOWN", retryable: true };
  }
  if (!rule && f.httpStatus) rule = byHttpStatus(f.httpStatus);
  rule ??= { code: "UNKNOWN", retryable: false };

  if (rule.code === "PERMISSION_DENIED" && !rule.retryable) {
    const { scopes, url } = missingScopes(msg, f.detail);
    return new BridgeError("PERMISSION_DENIED", text, {
      retryable: false,
      context: {
        ...context,
        scopes: scopes.length ? scopes : undefined,
        helpUrl: url ?? undefined,
      },
    });
  }
  if (UPLOADS.has(f.operation) && !["RATE_LIMITED", "PERMISSION_DENIED"].includes(rule.code)) {
    rule = { code: "UPLOAD_FAILED", retryable: false };
  } else if (
    DOWNLOADS.has(f.operation) && !["RATE_LIMITED", "PERMISSION_DENIED"].includes(rule.code)
  ) {
    rule = { code: "DOWNLOAD_FAILED", retryable: false };
  }
  return new BridgeError(rule.code, text, {
    retryable: rule.retryable,
    retryAfterSeconds: retryAfter,
    context,
  });
}

function byHttpStatus(status: number): { code: ErrorCode; retryable: boolean } | undefined {
  if (status === 429) return { code: "RATE_LIMITED", retryable: true };
  if (status === 401 || status === 403) return { code: "PERMISSION_DENIED", retryable: false };
  if (status === 404) return { code: "TARGET_REVOKED", retryable: false };
  if (status === 400) return { code: "FORMAT_ERROR", retryable: false };
  if (status >= 500) return { code: "UNKNOWN", retryable: true };
  return undefined;
}

/**
 * The wait hint: `x-ogw-ratelimit-reset` (seconds), else `Retry-After`, else null.
 *
 * @example
 * ```ts
 * import { retryAfterSeconds } from "./classify.ts";
 * if (retryAfterSeconds({ "Retry-After": "17" }) !== 17) throw new Error();
 * if (retryAfterSeconds({}) !== null) throw new Error();
 * ```
 */
export function retryAfterSeconds(
  headers: Record<string, string | undefined> | null | undefined,
): number | null {
  if (!headers) return null;
  const get = (name: string) => {
    for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return v;
    return undefined;
  };
  for (const name of ["x-ogw-ratelimit-reset", "retry-after"]) {
    const raw = get(name);
    if (raw === undefined) continue;
    const n = Number(String(raw).trim());
    if (Number.isFinite(n) && n >= 0) return n;
  }
  return null;
}

/**
 * Scopes and grant link from a permission error: Feishu names the scopes in
 * brackets in `msg` and appends a console link; `permission_violations`
 * carries them structured.
 *
 * @example
 * ```ts
 * import { missingScopes } from "./classify.ts";
 * const r = missingScopes(
 *   "Access denied. One of the following scopes is required: [im:resource, im:resource:upload]. https://open.feishu.cn/app/cli_x/auth?q=im:resource",
 *   undefined,
 * );
 * if (r.scopes.join() !== "im:resource,im:resource:upload") throw new Error(r.scopes.join());
 * if (r.url !== "https://open.feishu.cn/app/cli_x/auth?q=im:resource") throw new Error();
 * ```
 */
export function missingScopes(
  msg: string,
  detail: unknown,
): { scopes: string[]; url: string | null } {
  const scopes = new Set<string>();
  const bracket = msg.match(/scopes? (?:is |are )?required:?\s*\[([^\]]+)\]/i) ??
    msg.match(/\[([a-z_]+:[^\]]+)\]/i);
  if (bracket?.[1]) {
    for (const s of bracket[1].split(/[,，\s]+/)) {
      if (/^[a-z_.]+(:[a-z_.:]+)+$/i.test(s)) scopes.add(s);
    }
  }
  const violations = (detail as { permission_violations?: { subject?: unknown }[] } | undefined)
    ?.permission_violations;
  if (Array.isArray(violations)) {
    for (const v of violations) if (typeof v?.subject === "string") scopes.add(v.subject);
  }
  const url = msg.match(/https?:\/\/[^\s\]）)，,]+/)?.[0] ?? null;
  return { scopes: [...scopes], url };
}

/**
 * Classifies a transport failure (no Feishu answer). For operations with a
 * visible side effect an abort after sending is indeterminate: the request
 * may have landed.
 */
export function classifyTransportFailure(operation: string, err: unknown): BridgeError {
  const e = err as { code?: string; message?: string; config?: { url?: unknown } };
  // The SDK throws a plain Error when the token endpoint answers 200 without a token.
  const refused = /^failed to get tenant_access_token, code: (-?\d+), msg: (.*)$/s.exec(
    String(e?.message ?? ""),
  );
  if (refused) {
    return classifyProviderFailure({
      operation,
      code: Number(refused[1]),
      msg: refused[2],
      tokenRequest: true,
    });
  }
  if (isTokenUrl(e?.config?.url)) {
    return tokenRequestFailure(classifyTransport(operation, err, e));
  }
  return classifyTransport(operation, err, e);
}

function classifyTransport(
  operation: string,
  err: unknown,
  e: { code?: string; message?: string },
): BridgeError {
  const timedOut = e?.code === "ECONNABORTED" || e?.code === "ETIMEDOUT" ||
    /timeout/i.test(e?.message ?? "");
  const detail = e?.code ? `${e.code} ${e.message ?? ""}`.trim() : (e?.message ?? String(err));
  if (timedOut && (operation === "send" || operation === "reply")) {
    return new BridgeError(
      "SEND_TIMEOUT",
      `Feishu ${operation} timed out (${detail}); the message may or may not have been delivered — check the chat, or repeat with the same idempotency_key`,
      { retryable: false, cause: err, context: { operation } },
    );
  }
  const code = UPLOADS.has(operation)
    ? "UPLOAD_FAILED"
    : DOWNLOADS.has(operation)
    ? "DOWNLOAD_FAILED"
    : "UNKNOWN";
  return new BridgeError(code, `Feishu ${operation} failed: ${detail}`, {
    retryable: true,
    cause: err,
    context: { operation },
  });
}
