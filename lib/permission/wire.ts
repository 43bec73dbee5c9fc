/**
 * The relay's two inputs, checked: the params of a
 * `notifications/claude/channel/permission_request`, and a typed answer
 * (`yes abcde`, `n abcde`, any case, surrounding spaces). Pure.
 * @module
 */

import { REQUEST_ID } from "../callbacks/mod.ts";

/** A prompt from the client. */
export interface PermissionRequest {
  request_id: string;
  tool_name: string;
  description: string;
  input_preview: string;
}

/** Longest string field kept from a request, in UTF-16 units (the card cuts further). */
const MAX_FIELD = 20_000;

/**
 * The request in `params`, or null when the id is not five letters a–z
 * without `l` or a field is not a string.
 *
 * @example
 * ```ts
 * import { parsePermissionRequest } from "./wire.ts";
 * import assert from "node:assert/strict";
 * const ok = { request_id: "abcde", tool_name: "Bash", description: "d", input_preview: "{}" };
 * assert.deepEqual(parsePermissionRequest(ok), ok);
 * assert.equal(parsePermissionRequest({ ...ok, request_id: "abcdl" }), null);
 * ```
 */
export function parsePermissionRequest(params: unknown): PermissionRequest | null {
  if (typeof params !== "object" || params === null) return null;
  const p = params as Record<string, unknown>;
  if (typeof p.request_id !== "string" || !REQUEST_ID.test(p.request_id)) return null;
  const fields = ["tool_name", "description", "input_preview"] as const;
  if (!fields.every((k) => typeof p[k] === "string")) return null;
  return {
    request_id: p.request_id,
    tool_name: (p.tool_name as string).slice(0, MAX_FIELD),
    description: (p.description as string).slice(0, MAX_FIELD),
    input_preview: (p.input_preview as string).slice(0, MAX_FIELD),
  };
}

const TYPED = /^\s*(y|yes|n|no)\s+([a-km-z]{5})\s*$/i;

/**
 * A typed answer, or null.
 *
 * @example
 * ```ts
 * import { typedVerdict } from "./wire.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(typedVerdict(" YES abcde "), { requestId: "abcde", behavior: "allow" });
 * assert.deepEqual(typedVerdict("n ABCDE"), { requestId: "abcde", behavior: "deny" });
 * assert.equal(typedVerdict("yes please"), null);
 * ```
 */
export function typedVerdict(
  text: string,
): { requestId: string; behavior: "allow" | "deny" } | null {
  const m = TYPED.exec(text);
  if (!m) return null;
  const id = m[2]!.toLowerCase();
  if (!REQUEST_ID.test(id)) return null;
  return { requestId: id, behavior: m[1]!.toLowerCase().startsWith("y") ? "allow" : "deny" };
}
