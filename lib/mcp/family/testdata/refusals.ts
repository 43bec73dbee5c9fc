/**
 * Test-only helpers of the validation tests: the exact failure each step
 * gives, and one test per refused call that checks all of the failure.
 * @module
 */

import assert from "node:assert/strict";
import type { FeishuAction } from "../actions.ts";
import { actionInputSchema } from "../schema.ts";
import { validateToolCall } from "../validate.ts";

/** The `error_code` and exact `message` a refusal must have. */
export type Want = readonly [code: string, message: string];

/** The root keys, as failures list them. */
export const ROOT = ["action", "input", "reasoning", "summarize"];
/** Step 1: an unknown root key. */
export const unsupported = (key: string): Want => [
  "INVALID_ARGUMENT",
  `unsupported feishu argument: ${key} (accepted: ${ROOT.join(", ")})`,
];
/** Step 2: a missing or unknown action. */
export const ACTION: Want = [
  "ACTION_REQUIRED",
  "invalid feishu action: expected one of send, check, read, reply, react, search, delete, " +
  "edit, contacts, add_contact, remove_contact, accounts, manual",
];
/** Step 3. */
export const NOT_OBJECT: Want = ["INVALID_ARGUMENT", "input must be an object: expected an object"];
/** Step 4. */
export const REASONING: Want = ["INVALID_ARGUMENT", "reasoning is required: expected a string"];
/** Step 5. */
export const SUMMARIZE: Want = [
  "INVALID_ARGUMENT",
  "summarize must be a boolean: expected a boolean",
];
/** Steps 6 and 7: `path: what was expected` after the step's prefix. */
export const input = (
  problem: string,
): Want => ["INVALID_ARGUMENT", `invalid feishu input: ${problem}`];

/** A family call with `reasoning` filled in. */
export function call(action: unknown, input: unknown, extra: Record<string, unknown> = {}) {
  return { action, input, reasoning: "why", ...extra };
}

/**
 * One test per case: refused with exactly the code and message wanted, the
 * stable fields, the message telling the details, and the keys
 * accepted where it failed.
 */
export function testRefusals(rejected: readonly [string, unknown, Want][]): void {
  for (const [name, args, [code, message]] of rejected) {
    Deno.test(`validateToolCall() refuses ${name} with ${code} "${message}"`, () => {
      const result = validateToolCall(args);
      assert.equal(result.ok, false);
      if (result.ok) return;
      const { details, accepted_keys, ...stable } = result.failure;
      assert.deepEqual(stable, {
        status: "failed",
        error: message,
        message,
        error_code: code,
        retryable: false,
        retry_after_seconds: null,
      });
      // The message tells the details, first to last (an input's, all of them).
      const tell = (d: (typeof details)[number]) =>
        message.startsWith("unsupported")
          ? `${d.path} (accepted: ${ROOT.join(", ")})`
          : message.startsWith("invalid feishu input")
          ? `${d.path}: ${d.message}`
          : d.message;
      const told = message.slice(message.indexOf(": ") + 2);
      if (message.startsWith("invalid feishu input") && details.length <= 5) {
        assert.equal(told, details.map(tell).join("; "));
      } else assert.ok(told.startsWith(tell(details[0]!)), told);
      const action = (args as { action?: unknown } | null)?.action;
      if (message.startsWith("invalid feishu input")) {
        assert.deepEqual(
          accepted_keys,
          Object.keys(actionInputSchema(action as FeishuAction).properties as object),
        );
      } else assert.deepEqual(accepted_keys, ROOT);
    });
  }
}
