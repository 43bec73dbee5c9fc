/**
 * What every action gets: config, store, accounts and the long-lived parts
 * of outbound. Built once by the service; actions are functions of
 * (context, input).
 * @module
 */

import type { Account } from "../account/mod.ts";
import type { Config, LaunchOptions } from "../config/mod.ts";
import { BridgeError, type Deps } from "../core/mod.ts";
import type { ConversationLog } from "../conversation/mod.ts";
import type { Store } from "../store/mod.ts";
import type { OutboundRuntime } from "../outbound/mod.ts";

/** The action context. */
export interface ActionContext {
  deps: Deps;
  launch: LaunchOptions;
  config: Config;
  store: Store;
  /** Accounts in config order. */
  accounts: readonly Account[];
  outbound: OutboundRuntime;
  /** Absolute path of the public identity document. */
  identityPath: string;
  /** Where sent messages are recorded (its listeners see them land). */
  conversation: ConversationLog;
}

/**
 * The account named by `alias` (a compound id's first segment, or the
 * `account` input); without one, the first configured account. An unknown
 * alias is an `INVALID_ARGUMENT` naming the configured ones.
 */
export function resolveAccount(ctx: ActionContext, alias?: string | null): Account {
  const wanted = alias || ctx.accounts[0]?.alias;
  const found = ctx.accounts.find((a) => a.alias === wanted);
  if (!found) {
    throw new BridgeError(
      "INVALID_ARGUMENT",
      `Unknown account '${wanted}'; configured accounts: ${
        ctx.accounts.map((a) => a.alias).join(", ")
      }`,
    );
  }
  return found;
}
