/**
 * One-line JSON-RPC errors for malformed requests. The SDK answers a request
 * whose params fail its own schema with the validator's multi-line issue
 * dump, sometimes as -32603 (internal error); a client that sent bad params
 * should get -32602 and one line naming the first bad path.
 * @module
 */

interface Issue {
  path: (string | number)[];
  message: string;
}

/** A JSON-RPC error response as it goes out. */
export interface ErrorResponse {
  jsonrpc: "2.0";
  id: string | number;
  error: { code: number; message: string; data?: unknown };
}

const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;

/**
 * Rewrites an error response whose message carries a params issue dump; any
 * other error is returned unchanged.
 *
 * @example
 * ```ts
 * import { tidyErrorResponse } from "./_wire_errors.ts";
 * import assert from "node:assert/strict";
 * const dump = JSON.stringify([{ code: "invalid_type", path: ["params", "protocolVersion"],
 *   message: "Invalid input: expected string, received undefined" }], null, 2);
 * const out = tidyErrorResponse(
 *   { jsonrpc: "2.0", id: 1, error: { code: -32603, message: dump } },
 *   "initialize",
 * );
 * assert.deepEqual(out.error, {
 *   code: -32602,
 *   message: "Invalid initialize request: params.protocolVersion: expected string, received undefined",
 * });
 * ```
 */
export function tidyErrorResponse(
  response: ErrorResponse,
  method: string | undefined,
): ErrorResponse {
  const { code, message } = response.error;
  if (code !== INTERNAL_ERROR && code !== INVALID_PARAMS) return response;
  const split = message.indexOf("[");
  if (split < 0) return response;
  const issues = parseIssues(message.slice(split));
  const first = issues?.[0];
  if (!first || first.path[0] !== "params") return response;
  const where = first.path.map(String).join(".");
  const what = first.message.replace(/^Invalid input: /, "");
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : "";
  const head = method ? `Invalid ${method} request` : "Invalid params";
  return {
    ...response,
    error: { code: INVALID_PARAMS, message: `${head}: ${where}: ${what}${more}` },
  };
}

function parseIssues(text: string): Issue[] | null {
  try {
    const value = JSON.parse(text) as unknown;
    if (!Array.isArray(value) || value.length === 0) return null;
    const ok = value.every((i) =>
      i !== null && typeof i === "object" && Array.isArray((i as Issue).path) &&
      typeof (i as Issue).message === "string"
    );
    return ok ? value as Issue[] : null;
  } catch {
    return null;
  }
}
