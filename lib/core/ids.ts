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
