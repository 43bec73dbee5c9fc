/**
 * Callback values the bridge reserves for its own cards, recognised only in
 * their exact shape (anything else is the agent's business callback):
 *
 * - `{"lingtai_control": {"version": 1, "command": C, "argument": A}}` — a
 *   control card's button: C one of the eleven local commands, A a string of at
 *   most 256 characters;
 * - `{"feishu_mcp_permission": {"version": 1, "request_id": R, "behavior": B}}`
 *   — an approval card's Allow or Deny: R five letters a–z without `l`, B
 *   `allow` or `deny`.
 * @module
 */

import { isLocalCommand, type LocalCommand } from "../../commands/mod.ts";

/** A control card's button press. */
export interface ControlRequest {
  command: LocalCommand;
  argument: string;
}

/** An approval card's answer. */
export interface PermissionVote {
  requestId: string;
  behavior: "allow" | "deny";
}

/** The reserved key of control card buttons. */
export const CONTROL_KEY = "lingtai_control";
/** The reserved key of approval card buttons. */
export const PERMISSION_KEY = "feishu_mcp_permission";

/** A permission request id as Claude Code makes them. */
export const REQUEST_ID = /^[a-km-z]{5}$/;

function exactly(v: unknown, keys: readonly string[]): Record<string, unknown> | null {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return null;
  const have = Object.keys(v);
  if (have.length !== keys.length || !keys.every((k) => have.includes(k))) return null;
  return v as Record<string, unknown>;
}

/**
 * The control request a value carries, or null.
 *
 * @example
 * ```ts
 * import { controlRequest } from "./reserved.ts";
 * import assert from "node:assert/strict";
 * const v = { lingtai_control: { version: 1, command: "kanban", argument: "3" } };
 * assert.deepEqual(controlRequest(v), { command: "kanban", argument: "3" });
 * assert.equal(controlRequest({ lingtai_control: { version: "1", command: "kanban", argument: "" } }), null);
 * assert.equal(controlRequest({ action: "confirm" }), null);
 * ```
 */
export function controlRequest(value: unknown): ControlRequest | null {
  const inner = exactly(exactly(value, [CONTROL_KEY])?.[CONTROL_KEY], [
    "version",
    "command",
    "argument",
  ]);
  if (!inner || inner.version !== 1 || !isLocalCommand(inner.command)) return null;
  const arg = inner.argument;
  if (typeof arg !== "string" || Array.from(arg).length > 256) return null;
  return { command: inner.command, argument: arg };
}

/**
 * The synthetic command text of a control request, as if typed.
 *
 * @example
 * ```ts
 * import { controlText } from "./reserved.ts";
 * if (controlText({ command: "kanban", argument: "all" }) !== "/kanban all") throw new Error();
 * if (controlText({ command: "help", argument: "" }) !== "/help") throw new Error();
 * ```
 */
export function controlText(req: ControlRequest): string {
  return req.argument === "" ? `/${req.command}` : `/${req.command} ${req.argument}`;
}

/**
 * The permission vote a value carries, or null.
 *
 * @example
 * ```ts
 * import { permissionVote } from "./reserved.ts";
 * import assert from "node:assert/strict";
 * const v = { feishu_mcp_permission: { version: 1, request_id: "abcde", behavior: "deny" } };
 * assert.deepEqual(permissionVote(v), { requestId: "abcde", behavior: "deny" });
 * assert.equal(permissionVote({ feishu_mcp_permission: { version: 1, request_id: "abcdl", behavior: "deny" } }), null);
 * ```
 */
export function permissionVote(value: unknown): PermissionVote | null {
  const inner = exactly(exactly(value, [PERMISSION_KEY])?.[PERMISSION_KEY], [
    "version",
    "request_id",
    "behavior",
  ]);
  if (!inner || inner.version !== 1) return null;
  const id = inner.request_id;
  const b = inner.behavior;
  if (typeof id !== "string" || !REQUEST_ID.test(id) || (b !== "allow" && b !== "deny")) {
    return null;
  }
  return { requestId: id, behavior: b };
}

/** The button value of an approval card's answer. */
export function permissionValue(vote: PermissionVote): Record<string, unknown> {
  return {
    [PERMISSION_KEY]: { version: 1, request_id: vote.requestId, behavior: vote.behavior },
  };
}
