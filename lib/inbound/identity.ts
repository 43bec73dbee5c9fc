/**
 * The bot's own identity (open_id, name) from `bot/v3/info`, falling back to
 * `application/v6`; cached in the store so group @-gating keeps working when
 * the lookup fails (spec §1.5, ARCHITECTURE.md "Resolutions: Identity").
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
  try {
    const bot = await api.botInfo();
    const fresh: BotIdentity = {
      account: api.alias,
      appId: api.appId,
      botOpenId: bot.openId,
      botName: bot.name,
      botUserId: null,
      source: "bot_info",
      lastVerifiedAt: clock.now(),
    };
    identities.put(fresh);
    return fresh;
  } catch (err) {
    log.warn("bot identity lookup failed; trying application info", {
      account: api.alias,
      error: (err as Error).message,
    });
  }
  try {
    const app = await api.appInfo();
    const fresh: BotIdentity = {
      account: api.alias,
      appId: api.appId,
      botOpenId: app.openId ?? cached?.botOpenId ?? null,
      botName: app.name ?? cached?.botName ?? null,
      botUserId: null,
      source: "application",
      lastVerifiedAt: clock.now(),
    };
    identities.put(fresh);
    return fresh;
  } catch (err) {
    log.warn("application info lookup failed; using the cached identity", {
      account: api.alias,
      cached: cached?.botOpenId ? "yes" : "no",
      error: (err as Error).message,
    });
  }
  return cached;
}
