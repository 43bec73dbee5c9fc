/**
 * The thirteen actions of the `feishu` tool, in canonical order.
 * @module
 */

/**
 * Every action the `feishu` tool accepts, in the canonical order the published
 * schema and the descriptions use.
 *
 * @example
 * ```ts
 * import { FEISHU_ACTIONS } from "./actions.ts";
 * import assert from "node:assert/strict";
 * assert.equal(FEISHU_ACTIONS.length, 13);
 * assert.equal(FEISHU_ACTIONS[0], "send");
 * assert.equal(FEISHU_ACTIONS[12], "manual");
 * ```
 */
export const FEISHU_ACTIONS = [
  "send",
  "check",
  "read",
  "reply",
  "react",
  "search",
  "delete",
  "edit",
  "contacts",
  "add_contact",
  "remove_contact",
  "accounts",
  "manual",
] as const;

/** One of {@link FEISHU_ACTIONS}. */
export type FeishuAction = typeof FEISHU_ACTIONS[number];

/**
 * Whether a value is exactly one of the action names (case-sensitive).
 *
 * @example
 * ```ts
 * import { isFeishuAction } from "./actions.ts";
 * import assert from "node:assert/strict";
 * assert.equal(isFeishuAction("send"), true);
 * assert.equal(isFeishuAction("Send"), false);
 * assert.equal(isFeishuAction(7), false);
 * ```
 */
export function isFeishuAction(value: unknown): value is FeishuAction {
  return typeof value === "string" && (FEISHU_ACTIONS as readonly string[]).includes(value);
}
