/**
 * The validation boundary of the `feishu` tool (seven ordered steps): the
 * first failing check decides the failure, and nothing past this point sees
 * a call that failed. `reasoning` and `summarize` stop here.
 * @module
 */

import { type ErrorCode, type Failure, failure } from "../../core/mod.ts";
import { isFeishuAction } from "./actions.ts";
import { ACTION_INPUT_SCHEMAS, type ValidatedCall } from "./inputs.ts";
import { isJsonObject } from "./_json_value.ts";
import { ROOT_KEYS } from "./schema.ts";

/** The result of {@link validateToolCall}. */
export type ValidationResult =
  | { ok: true; call: ValidatedCall }
  | { ok: false; failure: Failure };

/** The exact failure messages of the validation steps. */
export const VALIDATION_MESSAGES = {
  unsupportedArgument: "unsupported feishu argument",
  invalidAction: "invalid feishu action",
  inputNotObject: "input must be an object",
  reasoningRequired: "reasoning is required",
  summarizeNotBoolean: "summarize must be a boolean",
  invalidInput: "invalid feishu input",
} as const;

const ROOT_KEY_SET: ReadonlySet<string> = new Set(ROOT_KEYS);

/**
 * Checks a `tools/call` arguments value, in this order:
 * 1. a root key outside `action, input, reasoning, summarize` →
 *    `INVALID_ARGUMENT` "unsupported feishu argument";
 * 2. `action` not one of the 13 → `ACTION_REQUIRED` "invalid feishu action";
 * 3. `input` not an object → `INVALID_ARGUMENT` "input must be an object";
 * 4. `reasoning` not a string → `INVALID_ARGUMENT` "reasoning is required";
 * 5. `summarize` present and not a boolean → `INVALID_ARGUMENT`
 *    "summarize must be a boolean";
 * 6–7. `input` not accepted by the action's closed schema (which includes the
 *    `react` add/remove pairing) → `INVALID_ARGUMENT` "invalid feishu input".
 *
 * Arguments that are not an object (null, an array, a string) count as a
 * missing arguments object, which step 2 refuses. Failures are never
 * retryable. On success the call carries only the action and its input.
 *
 * @example
 * ```ts
 * import { validateToolCall } from "./validate.ts";
 * import assert from "node:assert/strict";
 * const ok = validateToolCall({ action: "check", input: {}, reasoning: "why", summarize: true });
 * assert.deepEqual(ok, { ok: true, call: { action: "check", input: {} } });
 * const bad = validateToolCall({ action: "check", input: {}, _reasoning: "x" });
 * assert.equal(bad.ok, false);
 * if (!bad.ok) assert.equal(bad.failure.message, "unsupported feishu argument");
 * ```
 */
export function validateToolCall(args: unknown): ValidationResult {
  const root = isJsonObject(args) ? args : {};
  if (Object.keys(root).some((key) => !ROOT_KEY_SET.has(key))) {
    return refuse("INVALID_ARGUMENT", VALIDATION_MESSAGES.unsupportedArgument);
  }
  const { action, input, reasoning } = root;
  if (!isFeishuAction(action)) return refuse("ACTION_REQUIRED", VALIDATION_MESSAGES.invalidAction);
  if (!isJsonObject(input)) return refuse("INVALID_ARGUMENT", VALIDATION_MESSAGES.inputNotObject);
  if (typeof reasoning !== "string") {
    return refuse("INVALID_ARGUMENT", VALIDATION_MESSAGES.reasoningRequired);
  }
  if (Object.hasOwn(root, "summarize") && typeof root.summarize !== "boolean") {
    return refuse("INVALID_ARGUMENT", VALIDATION_MESSAGES.summarizeNotBoolean);
  }
  const parsed = ACTION_INPUT_SCHEMAS[action].safeParse(input);
  if (!parsed.success) return refuse("INVALID_ARGUMENT", VALIDATION_MESSAGES.invalidInput);
  // The schema was picked by `action`, so the pair is one member of the union.
  return { ok: true, call: { action, input: parsed.data } as ValidatedCall };
}

function refuse(code: ErrorCode, message: string): ValidationResult {
  return { ok: false, failure: failure(code, message) };
}
