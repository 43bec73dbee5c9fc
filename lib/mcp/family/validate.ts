/**
 * The validation boundary of the `feishu` tool (seven ordered steps): the
 * first failing check decides the failure, and nothing past this point sees
 * a call that failed. `reasoning`, `summarize` and `wait_for_previous` stop
 * here. A failure says what to fix: its message is the step's stable prefix
 * plus that step's problems (bounded), `details` lists every problem found and
 * `accepted_keys` the keys accepted where it failed.
 * @module
 */

import { type ErrorCode, type Failure, failure } from "../../core/mod.ts";
import { FEISHU_ACTIONS, type FeishuAction, isFeishuAction } from "./actions.ts";
import { ACTION_INPUT_SCHEMAS, type ValidatedCall } from "./inputs.ts";
import { isJsonObject } from "./_json_value.ts";
import { inputProblems, type Problem, renderPath } from "./_problems.ts";
import { actionInputSchema, ROOT_KEYS } from "./schema.ts";

export type { Problem } from "./_problems.ts";

/** The result of {@link validateToolCall}. */
export type ValidationResult =
  | { ok: true; call: ValidatedCall }
  | { ok: false; failure: ValidationFailure };

/** The stable prefixes of the validation steps' failure messages. */
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
 * Root keys some clients add on their own (Gemini CLI's `wait_for_previous`):
 * accepted with any value and dropped, never published.
 */
export const IGNORED_ROOT_KEYS: readonly string[] = ["wait_for_previous"];

/** A refused call: the shared failure fields, every problem, the keys accepted there. */
export interface ValidationFailure extends Failure {
  details: Problem[];
  accepted_keys: string[];
}

/** One failed step: its code, its message prefix, how each of its problems reads. */
interface Step {
  code: ErrorCode;
  prefix: string;
  problems: Problem[];
  summary: (first: Problem) => string;
}

const ROOT_LIST = ROOT_KEYS.join(", ");
const pathAndMessage = (p: Problem) => `${p.path}: ${p.message}`;
const messageOnly = (p: Problem) => p.message;

/**
 * Checks a `tools/call` arguments value, in this order:
 * 1. a root key outside `action, input, reasoning, summarize` (and the
 *    ignored `wait_for_previous`) → `INVALID_ARGUMENT`
 *    "unsupported feishu argument";
 * 2. `action` not one of the 13 → `ACTION_REQUIRED` "invalid feishu action";
 * 3. `input` not an object → `INVALID_ARGUMENT` "input must be an object";
 * 4. `reasoning` not a string → `INVALID_ARGUMENT` "reasoning is required";
 * 5. `summarize` present and not a boolean → `INVALID_ARGUMENT`
 *    "summarize must be a boolean";
 * 6–7. `input` not accepted by the action's closed schema (which includes the
 *    `react` add/remove pairing) → `INVALID_ARGUMENT` "invalid feishu input".
 *
 * The first failing step gives the code and the message: its prefix, `: `
 * and its problems joined by `; ` (at most {@link MESSAGE_PROBLEMS}). `details` holds the problems of every step that can
 * be checked (the input only once the action and an input object are
 * known). Arguments that are not an object (null, an array, a string) count
 * as a missing arguments object, which step 2 refuses. Failures are never
 * retryable. On success the call carries only the action and its input.
 *
 * @example
 * ```ts
 * import { validateToolCall } from "./validate.ts";
 * import assert from "node:assert/strict";
 * const ok = validateToolCall({ action: "check", input: {}, reasoning: "why", summarize: true });
 * assert.deepEqual(ok, { ok: true, call: { action: "check", input: {} } });
 * const bad = validateToolCall({ action: "send", input: { text: "hi" }, reasoning: "x" });
 * assert.equal(bad.ok, false);
 * if (!bad.ok) {
 *   assert.equal(bad.failure.message, "invalid feishu input: input.receive_id: required for action 'send'");
 *   assert.deepEqual(bad.failure.details, [
 *     { path: "input.receive_id", message: "required for action 'send'" },
 *   ]);
 * }
 * ```
 */
export function validateToolCall(args: unknown): ValidationResult {
  const root = isJsonObject(args) ? args : {};
  const { action, input } = root;
  const steps = rootSteps(root);
  let parsed: ReturnType<typeof ACTION_INPUT_SCHEMAS[FeishuAction]["safeParse"]> | undefined;
  if (isFeishuAction(action) && isJsonObject(input)) {
    parsed = ACTION_INPUT_SCHEMAS[action].safeParse(input);
    if (!parsed.success) {
      const problems = inputProblems(action, actionInputSchema(action), input, parsed.error.issues);
      // zod decides; a refusal the translation could not place still refuses.
      if (!problems.length) {
        problems.push({ path: "input", message: `not accepted for '${action}'` });
      }
      steps.push({
        code: "INVALID_ARGUMENT",
        prefix: VALIDATION_MESSAGES.invalidInput,
        problems,
        summary: pathAndMessage,
      });
    }
  }
  const first = steps.find((s) => s.problems.length > 0);
  if (first) {
    const inputStep = first.prefix === VALIDATION_MESSAGES.invalidInput;
    const accepted = inputStep && isFeishuAction(action)
      ? Object.keys(actionInputSchema(action).properties as object)
      : [...ROOT_KEYS];
    return refuse(first, steps.flatMap((s) => s.problems), accepted);
  }
  // The schema was picked by `action`, so the pair is one member of the union.
  return { ok: true, call: { action, input: parsed!.data } as ValidatedCall };
}

/** Steps 1 to 5, each with its problems (none when it passes). */
function rootSteps(root: Record<string, unknown>): Step[] {
  const unknown = Object.keys(root).filter((k) =>
    !ROOT_KEY_SET.has(k) && !IGNORED_ROOT_KEYS.includes(k)
  );
  const { action, input, reasoning } = root;
  const one = (ok: boolean, path: string, message: string) => ok ? [] : [{ path, message }];
  return [
    {
      code: "INVALID_ARGUMENT",
      prefix: VALIDATION_MESSAGES.unsupportedArgument,
      problems: unknown.map((k) => ({ path: renderPath([k]), message: "unknown key" })),
      summary: (p) => `${p.path} (accepted: ${ROOT_LIST})`,
    },
    {
      code: "ACTION_REQUIRED",
      prefix: VALIDATION_MESSAGES.invalidAction,
      problems: one(
        isFeishuAction(action),
        "action",
        `expected one of ${FEISHU_ACTIONS.join(", ")}`,
      ),
      summary: messageOnly,
    },
    {
      code: "INVALID_ARGUMENT",
      prefix: VALIDATION_MESSAGES.inputNotObject,
      problems: one(isJsonObject(input), "input", "expected an object"),
      summary: messageOnly,
    },
    {
      code: "INVALID_ARGUMENT",
      prefix: VALIDATION_MESSAGES.reasoningRequired,
      problems: one(typeof reasoning === "string", "reasoning", "expected a string"),
      summary: messageOnly,
    },
    {
      code: "INVALID_ARGUMENT",
      prefix: VALIDATION_MESSAGES.summarizeNotBoolean,
      problems: one(
        !Object.hasOwn(root, "summarize") || typeof root.summarize === "boolean",
        "summarize",
        "expected a boolean",
      ),
      summary: messageOnly,
    },
  ];
}

/** How many of a step's problems its message names; `details` has them all. */
export const MESSAGE_PROBLEMS = 5;

function refuse(step: Step, details: Problem[], accepted: string[]): ValidationResult {
  // Every problem of the failing step, so one retry can fix them all (bounded).
  const named = step.problems.slice(0, MESSAGE_PROBLEMS).map(step.summary);
  const more = step.problems.length - named.length;
  if (more > 0) named.push(`and ${more} more (see details)`);
  const base = failure(step.code, `${step.prefix}: ${named.join("; ")}`);
  const out: ValidationFailure = { ...base, details, accepted_keys: accepted };
  return { ok: false, failure: out };
}
