/**
 * `accounts`: configured aliases and safe details — never
 * secrets, open_ids of people, chat ids or messages.
 * @module
 */

import type { ActionContext } from "./context.ts";

/** Safe per-account details, shared with the identity document. */
export function accountDetails(ctx: ActionContext): Record<string, unknown>[] {
  return ctx.accounts.map((a) => {
    const id = ctx.store.identities.get(a.alias);
    const d: Record<string, unknown> = {
      alias: a.alias,
      app_id: id?.appId ?? a.appId,
      bot_name: id?.botName ?? null,
      allowed_users_count: a.allowedUsers ? a.allowedUsers.length : null,
      contact_count: ctx.store.contacts.count(a.alias),
      config_source: ctx.launch.configSource,
    };
    if (id?.lastVerifiedAt) d.last_verified_at = new Date(id.lastVerifiedAt).toISOString();
    return d;
  });
}

/** `accounts`. */
export function accounts(ctx: ActionContext): Record<string, unknown> {
  return {
    status: "ok",
    accounts: ctx.accounts.map((a) => a.alias),
    details: accountDetails(ctx),
    identity_path: ctx.identityPath,
  };
}
