/**
 * Who an account admits, and the outbound gate built on it. The admitted
 * people are the account's owners, its `allowed_users` and everyone paired.
 * With `access.outbound: "admitted"`, the agent's writes may only reach an
 * admitted person (by open_id) or a chat one of them is known in (they
 * wrote there, or the bot wrote there to them by open_id); anything else is
 * `TARGET_NOT_ALLOWED`, before any request. With `"any"` nothing is checked.
 * @module
 */

import { BridgeError } from "../core/mod.ts";
import type { AccessRules } from "../config/mod.ts";

/** What the gate needs of an account. */
export interface GatedAccount {
  alias: string;
  access: AccessRules;
  /** Owners, allowed users and paired people. */
  admits(openId: string): boolean;
  admittedIds(): string[];
}

/** The store's answer to "is one of these people known in this chat". */
export type ChatKnowsAny = (alias: string, chatId: string, openIds: readonly string[]) => boolean;

/**
 * The admitted set of an account: owners, `allowed_users`, and the paired.
 *
 * @example
 * ```ts
 * import { admittedSet } from "./gate.ts";
 * const set = admittedSet(["ou_o"], ["ou_a"], ["ou_p"]);
 * if (!set.has("ou_p") || set.has("ou_x")) throw new Error();
 * ```
 */
export function admittedSet(
  owners: readonly string[],
  allowed: readonly string[] | null,
  paired: readonly string[],
): Set<string> {
  return new Set([...owners, ...(allowed ?? []), ...paired].filter((id) => id !== ""));
}

const RULE = 'access.outbound is "admitted"';
const WHO =
  "owners, allowed_users, paired people, and chats where one of them has talked to the bot";

function refuse(message: string): BridgeError {
  return new BridgeError("TARGET_NOT_ALLOWED", message, { retryable: false });
}

/**
 * Refuses a `send` target outside the gate: an open_id that is not admitted,
 * a chat no admitted person is known in, or a target named by email,
 * user_id or union_id (they cannot be checked without asking Feishu).
 */
export function checkSendTarget(
  account: GatedAccount,
  knows: ChatKnowsAny,
  receiveId: string,
  receiveIdType: string,
): void {
  if (account.access.outbound !== "admitted") return;
  if (receiveIdType === "open_id") {
    if (account.admits(receiveId)) return;
    throw refuse(
      `${RULE}: ${receiveId} is not an owner, allowed or paired user of account ` +
        `'${account.alias}'; send only to ${WHO}`,
    );
  }
  if (receiveIdType === "chat_id") return checkChat(account, knows, receiveId);
  throw refuse(
    `${RULE}: a ${receiveIdType} target cannot be checked; send to an open_id or a chat_id (${WHO})`,
  );
}

/** Refuses acting in a chat (reply, edit, delete, react) where no admitted person is known. */
export function checkChat(account: GatedAccount, knows: ChatKnowsAny, chatId: string): void {
  if (account.access.outbound !== "admitted") return;
  if (knows(account.alias, chatId, account.admittedIds())) return;
  throw refuse(
    `${RULE}: no owner, allowed or paired user of account '${account.alias}' has talked ` +
      `in chat ${chatId}; write only to ${WHO}`,
  );
}
