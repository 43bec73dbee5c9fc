/**
 * The one error type of the bridge and the stable failure shape it renders to.
 *
 * Expected failures (bad input, Feishu refusals) are returned as `Failure`
 * objects built from a `BridgeError`; bugs are thrown.
 * @module
 */

/** The closed set of `error_code` values a tool result may carry. */
export const ERROR_CODES = [
  "INVALID_ARGUMENT",
  "ACTION_REQUIRED",
  "NOT_CONNECTED",
  "DUPLICATE_BLOCKED",
  "NOT_FOUND",
  "UNKNOWN",
  "FORMAT_ERROR",
  "TARGET_REVOKED",
  "TARGET_NOT_ALLOWED",
  "RATE_LIMITED",
  "PERMISSION_DENIED",
  "UPLOAD_FAILED",
  "DOWNLOAD_FAILED",
  "SEND_TIMEOUT",
  "NOT_SUPPORTED",
] as const;

/** One of {@link ERROR_CODES}. */
export type ErrorCode = typeof ERROR_CODES[number];

/** Where an error happened, for logs and partial results; never secrets. */
export interface ErrorContext {
  account?: string;
  chatId?: string;
  messageId?: string;
  chunkIndex?: number;
  operation?: string;
  providerCode?: number;
  httpStatus?: number;
  /** Missing permission scopes Feishu named, if any. */
  scopes?: string[];
  /** Feishu's grant / troubleshooting link, if any. */
  helpUrl?: string;
}

/** Options of {@link BridgeError}. */
export interface BridgeErrorOptions {
  retryable?: boolean;
  retryAfterSeconds?: number | null;
  cause?: unknown;
  context?: ErrorContext;
}

/**
 * A classified failure: a code from {@link ERROR_CODES}, whether a new explicit
 * attempt may succeed, and an optional wait hint.
 *
 * @example Build and render
 * ```ts
 * import { BridgeError, toFailure } from "./errors.ts";
 * const f = toFailure(new BridgeError("INVALID_ARGUMENT", "Expected x"));
 * if (f.error_code !== "INVALID_ARGUMENT" || f.retryable) throw new Error();
 * ```
 */
export class BridgeError extends Error {
  readonly code: ErrorCode;
  readonly retryable: boolean;
  readonly retryAfterSeconds: number | null;
  readonly context: ErrorContext;

  constructor(code: ErrorCode, message: string, options: BridgeErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "BridgeError";
    this.code = code;
    this.retryable = options.retryable ?? false;
    this.retryAfterSeconds = normaliseRetryAfter(options.retryAfterSeconds);
    this.context = options.context ?? {};
  }
}

/** The six-key failure object every failed action returns. */
export interface Failure {
  status: "failed";
  error: string;
  message: string;
  error_code: ErrorCode;
  retryable: boolean;
  retry_after_seconds: number | null;
  [extra: string]: unknown;
}

/**
 * Renders any thrown value as the stable failure shape. A `BridgeError` keeps
 * its classification; anything else becomes `UNKNOWN`, not retryable. A
 * permission error that names its missing scopes or a grant link adds them as
 * `missing_scopes` and `help_url` (the six keys stay).
 *
 * @example Unknown errors
 * ```ts
 * import { toFailure } from "./errors.ts";
 * const f = toFailure(new Error("boom"));
 * if (f.error_code !== "UNKNOWN" || f.error !== f.message) throw new Error();
 * ```
 *
 * @example Missing scopes travel with the failure
 * ```ts
 * import { BridgeError, toFailure } from "./errors.ts";
 * const f = toFailure(new BridgeError("PERMISSION_DENIED", "no scope", {
 *   context: { scopes: ["im:message"], helpUrl: "https://open.feishu.cn/app" },
 * }));
 * if (JSON.stringify(f.missing_scopes) !== '["im:message"]' || f.help_url !== "https://open.feishu.cn/app") throw new Error();
 * ```
 */
export function toFailure(err: unknown): Failure {
  if (err instanceof BridgeError) {
    const out = failure(err.code, err.message, {
      retryable: err.retryable,
      retryAfterSeconds: err.retryAfterSeconds,
    });
    if (err.context.scopes?.length) out.missing_scopes = [...err.context.scopes];
    if (err.context.helpUrl) out.help_url = err.context.helpUrl;
    return out;
  }
  const text = err instanceof Error ? err.message : String(err);
  return failure("UNKNOWN", text);
}

/**
 * Any thrown value as a `BridgeError`: a bug below us becomes `UNKNOWN`,
 * keeping the original as its cause.
 *
 * @example
 * ```ts
 * import { asBridgeError } from "./errors.ts";
 * if (asBridgeError(new Error("boom")).code !== "UNKNOWN") throw new Error();
 * ```
 */
export function asBridgeError(err: unknown): BridgeError {
  if (err instanceof BridgeError) return err;
  return new BridgeError("UNKNOWN", err instanceof Error ? err.message : String(err), {
    cause: err,
  });
}

/**
 * Builds the failure shape directly.
 *
 * @example Empty text is replaced
 * ```ts
 * import { failure } from "./errors.ts";
 * if (failure("UNKNOWN", "").error !== "Feishu operation failed") throw new Error();
 * ```
 */
export function failure(
  code: ErrorCode,
  text: string,
  options: { retryable?: boolean; retryAfterSeconds?: number | null } = {},
): Failure {
  const message = text.trim() === "" ? "Feishu operation failed" : text;
  return {
    status: "failed",
    error: message,
    message,
    error_code: code,
    retryable: options.retryable ?? false,
    retry_after_seconds: normaliseRetryAfter(options.retryAfterSeconds),
  };
}

/** A wait hint is a finite non-negative number, else null. */
function normaliseRetryAfter(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : null;
}
