/**
 * Where `setup` registers and what it writes as the account's `domain`:
 * `feishu` (default) and `lark` name the two clouds' accounts hosts, a base
 * URL (an emulator, a private deployment) is its own accounts host. The
 * node-sdk always speaks https to the accounts host, so a URL must be https.
 * @module
 */

import { ACCOUNTS_HOSTS } from "../feishu/mod.ts";

/** The accounts hosts to register at and the config's `domain` value. */
export interface SetupDomain {
  /** `feishu`, `lark` or the base URL (origin, no trailing slash). */
  configDomain: string;
  /** host[:port] the registration starts at. */
  accountsHost: string;
  /** host[:port] the SDK switches to when the scanner's tenant is on Lark. */
  larkAccountsHost: string;
}

/**
 * Reads `--domain`; throws an `Error` naming what is accepted.
 *
 * @example
 * ```ts
 * import { setupDomain } from "./domain.ts";
 * const d = setupDomain("https://127.0.0.1:8443");
 * if (d.accountsHost !== "127.0.0.1:8443" || d.configDomain !== "https://127.0.0.1:8443") throw new Error();
 * if (setupDomain(null).accountsHost !== "accounts.feishu.cn") throw new Error();
 * ```
 */
export function setupDomain(flag: string | null | undefined): SetupDomain {
  if (!flag || flag === "feishu") {
    return {
      configDomain: "feishu",
      accountsHost: ACCOUNTS_HOSTS.feishu,
      larkAccountsHost: ACCOUNTS_HOSTS.lark,
    };
  }
  if (flag === "lark") {
    return {
      configDomain: "lark",
      accountsHost: ACCOUNTS_HOSTS.lark,
      larkAccountsHost: ACCOUNTS_HOSTS.lark,
    };
  }
  let url: URL;
  try {
    url = new URL(flag);
  } catch {
    throw new Error(`Expected --domain to be feishu, lark or an https URL but found '${flag}'`);
  }
  if (url.protocol !== "https:") {
    throw new Error(
      `Expected --domain to be an https URL (app registration only speaks https) but found '${flag}'`,
    );
  }
  return { configDomain: url.origin, accountsHost: url.host, larkAccountsHost: url.host };
}
