/**
 * The bot's own identity (open_id, name) from `bot/v3/info`, falling back to
 * `application/v6`; cached in the store so group @-gating keeps working when
 * both lookups fail.
 * @module
 */

import type { Clock, Logger } from "../core/mod.ts";
import type { FeishuApi } from "../feishu/mod.ts";
import type { BotIdentity, IdentityStore } from "../store/mod.ts";

/** Options of {@link refreshIdentity}. */
export interface IdentityOptions {
  api: FeishuApi;
  identities: IdentityStore;
  clock: Clock;
  log: Logger;
}

/**
 * Looks the identity up and caches it. Returns the identity in effect (fresh,
 * or the cached one when both lookups failed), or null when none is known.
 */
export async function refreshIdentity(options: IdentityOptions): Promise<BotIdentity | null> {
  const { api, identities, clock, log } = options;
  const cached = identities.get(api.alias);
  const lookups = [
    {
      source: "bot_info",
      failed: "bot identity lookup failed; trying application info",
      look: async () => {
        const bot = await api.botInfo();
        return { openId: bot.openId, name: bot.name };
      },
    },
    {
      source: "application",
      failed: "application info lookup failed; using the cached identity",
      look: async () => {
        const app = await api.appInfo();
        return { openId: app.openId ?? cached?.botOpenId ?? null, name: app.name };
      },
    },
  ];
  for (const { source, failed, look } of lookups) {
    try {
      const found = await look();
      const fresh: BotIdentity = {
        account: api.alias,
        appId: api.appId,
        botOpenId: found.openId,
        botName: found.name ?? (source === "application" ? cached?.botName ?? null : null),
        botUserId: null,
        source,
        lastVerifiedAt: clock.now(),
      };
      identities.put(fresh);
      return fresh;
    } catch (err) {
      log.warn(failed, {
        account: api.alias,
        ...(source === "application" ? { cached: cached?.botOpenId ? "yes" : "no" } : {}),
        error: (err as Error).message,
      });
    }
  }
  return cached;
}
