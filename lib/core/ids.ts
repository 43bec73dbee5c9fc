/**
 * Compound ids: `{alias}:{chat_id}:{feishu_message_id}`. The
 * agent passes them back verbatim; parsing splits on the first two `:` only.
 * @module
 */

import { BridgeError } from "./errors.ts";

/** The three parts of a compound id. */
export interface CompoundId {
  alias: string;
  chatId: string;
  messageId: string;
}

/**
 * Joins the parts of a compound id.
 *
 * @example
 * ```ts
 * import { formatCompoundId } from "./ids.ts";
 * if (formatCompoundId("main", "oc_1", "om_2") !== "main:oc_1:om_2") throw new Error();
 * ```
 */
export function formatCompoundId(alias: string, chatId: string, messageId: string): string {
  return `${alias}:${chatId}:${messageId}`;
}

/**
 * Splits a compound id; the message part may itself contain `:`.
 * Throws `INVALID_ARGUMENT` when there are fewer than three parts.
 *
 * @example
 * ```ts
 * import { parseCompoundId } from "./ids.ts";
 * const id = parseCompoundId("main:events:a:b");
 * if (id.alias !== "main" || id.chatId !== "events" || id.messageId !== "a:b") throw new Error();
 * ```
 */
export function parseCompoundId(id: string): CompoundId {
  const first = id.indexOf(":");
  const second = first < 0 ? -1 : id.indexOf(":", first + 1);
  if (first < 0 || second < 0) {
    throw new BridgeError("INVALID_ARGUMENT", `Invalid Feishu message ID format: '${id}'`);
  }
  return {
    alias: id.slice(0, first),
    chatId: id.slice(first + 1, second),
    messageId: id.slice(second + 1),
  };
}

/** The reserved conversation that holds passive channel events. */
export const EVENTS_CHAT_ID = "events";

/** Longest id accepted from the agent, in characters. */
export const MAX_ID_CHARS = 256;

const ID_ALPHABET = /^[A-Za-z0-9_-]+$/;
// An address the agent names a user by: no whitespace, no path or query characters.
const EMAIL = /^[^\s@/\\?#%:]+@[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$/;

/**
 * Whether `value` is spelled like a Feishu id (`om_…`, `oc_…`, `ou_…`,
 * `img_v3_…`, reaction ids, emoji types): letters, digits, `_` and `-` only,
 * 1 to 256 characters. Such an id can never leave its path segment.
 *
 * @example
 * ```ts
 * import { isFeishuId } from "./ids.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(
 *   ["om_1", "img_v3_0a-B", "", "../chats/oc_x", "om_1?x=1", "om_1#x", "%2e%2e", "a/b", "a b"]
 *     .map(isFeishuId),
 *   [true, true, false, false, false, false, false, false, false],
 * );
 * ```
 */
export function isFeishuId(value: string): boolean {
  return value.length <= MAX_ID_CHARS && ID_ALPHABET.test(value);
}

/** A value quoted for an error message, cut to a readable length. */
function quoted(value: string): string {
  const shown = value.length > 80 ? `${value.slice(0, 80)}…` : value;
  return JSON.stringify(shown);
}

/**
 * `value` when it is spelled like a Feishu id; otherwise `INVALID_ARGUMENT`
 * naming `field`.
 *
 * @example
 * ```ts
 * import { requireFeishuId } from "./ids.ts";
 * import assert from "node:assert/strict";
 * assert.equal(requireFeishuId("reaction_id", "rc_1"), "rc_1");
 * assert.throws(
 *   () => requireFeishuId("reaction_id", "rc/1"),
 *   (e: Error & { code?: string }) => e.code === "INVALID_ARGUMENT" && /reaction_id/.test(e.message),
 * );
 * ```
 */
export function requireFeishuId(field: string, value: string): string {
  if (isFeishuId(value)) return value;
  throw new BridgeError(
    "INVALID_ARGUMENT",
    `${field} must be a Feishu id (1 to ${MAX_ID_CHARS} letters, digits, '_' or '-') ` +
      `but found ${quoted(value)}`,
  );
}

/**
 * `value` when it is a plain email address (`receive_id` of type `email`);
 * otherwise `INVALID_ARGUMENT` naming `field`.
 *
 * @example
 * ```ts
 * import { requireEmail } from "./ids.ts";
 * import assert from "node:assert/strict";
 * assert.equal(requireEmail("receive_id", "alice@emu.example"), "alice@emu.example");
 * assert.throws(() => requireEmail("receive_id", "a@b/../c"));
 * assert.throws(() => requireEmail("receive_id", "ou_1"));
 * ```
 */
export function requireEmail(field: string, value: string): string {
  if (value.length <= MAX_ID_CHARS && EMAIL.test(value)) return value;
  throw new BridgeError(
    "INVALID_ARGUMENT",
    `${field} must be an email address (name@domain) but found ${quoted(value)}`,
  );
}
