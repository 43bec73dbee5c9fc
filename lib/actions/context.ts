/**
 * What every action gets: config, store, accounts and the embedded manual.
 * Built once by the service; actions are functions of (context, input).
 * @module
 */

import type { Config, LaunchOptions } from "../config/mod.ts";
import { BridgeError, type Deps } from "../core/mod.ts";
import type { FeishuApi } from "../feishu/mod.ts";
import type { Store } from "../store/mod.ts";

/** One configured account at run time. */
export interface AccountRuntime {
  alias: string;
  appId: string;
  allowedUsers: string[] | null;
  api: FeishuApi;
}

/** The action context. */
export interface ActionContext {
  deps: Deps;
  launch: LaunchOptions;
  config: Config;
  store: Store;
  /** Accounts in config order. */
  accounts: AccountRuntime[];
  /** Absolute path of the public identity document. */
  identityPath: string;
}

/**
 * The account an action works on: `account` if given, else the first one.
 * Unknown aliases are an `INVALID_ARGUMENT` naming the configured ones.
 */
export function resolveAccount(
  ctx: ActionContext,
  alias: string | null | undefined,
): AccountRuntime {
  const wanted = alias ? alias : ctx.accounts[0]?.alias;
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
