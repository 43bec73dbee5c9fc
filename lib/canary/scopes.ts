/**
 * The scopes each feature of the bridge needs, as data: one row per feature
 * with the reason it exists and, per scope, what breaks without it. The
 * canary compares a tenant's grants with {@link requiredScopes}; the
 * exported table lets documentation be checked against the same list.
 * Pure: no I/O.
 * @module
 */

import type { Config } from "../config/mod.ts";

/** One scope a feature asks for, and why. */
export interface ScopeReason {
  scope: string;
  /** One line: what the bridge does with it. */
  reason: string;
}

/** A feature of the bridge and the scopes it needs. */
export interface FeatureScopes {
  /** Stable name, e.g. `messaging`. */
  feature: string;
  /** One line: what the feature is. */
  reason: string;
  /** True when the bridge works without it (a missing scope is then a warning). */
  optional: boolean;
  scopes: readonly ScopeReason[];
  /**
   * Whether a config turns the feature on. Every feature is on for every
   * config today (the config has no switch for them); the hook keeps the
   * table honest when one appears.
   */
  enabled(config: Config): boolean;
}

const always = () => true;

/** Every feature with its scopes, in the order the canary reports them. */
export const FEATURE_SCOPES: readonly FeatureScopes[] = Object.freeze([
  {
    feature: "messaging",
    reason: "receiving DMs and group @-mentions, answering, media, progress reactions",
    optional: false,
    enabled: always,
    scopes: [
      { scope: "im:message", reason: "read and manage messages" },
      { scope: "im:message:send_as_bot", reason: "send, reply, edit and delete as the bot" },
      { scope: "im:message.p2p_msg:readonly", reason: "receive direct messages" },
      { scope: "im:message.group_at_msg:readonly", reason: "receive group @-mentions" },
      { scope: "im:resource", reason: "download inbound media, upload outbound media" },
      {
        scope: "im:message.reactions:write_only",
        reason: "the seen, typing and done reactions",
      },
    ],
  },
  {
    feature: "reaction_events",
    reason: "passive reaction events recorded for the agent",
    optional: false,
    enabled: always,
    scopes: [{ scope: "im:message.reactions:read", reason: "receive reaction events" }],
  },
  {
    feature: "sender_names",
    reason: "display names of the people who write",
    optional: true,
    enabled: always,
    scopes: [{
      scope: "contact:user.base:readonly",
      reason: "sender display names, which stay empty without it",
    }],
  },
  {
    feature: "chat_info",
    reason: "chat names and modes, backfill of history",
    optional: true,
    enabled: always,
    scopes: [{ scope: "im:chat:readonly", reason: "chat information and history backfill" }],
  },
]);

/** A scope the enabled features need. */
export interface ScopeNeed extends ScopeReason {
  feature: string;
  optional: boolean;
}

/**
 * The scopes the features a config enables need, each once (a scope two
 * features share is required if either requires it), in table order.
 *
 * @example Every messaging scope is required, sender names are optional
 * ```ts
 * import { requiredScopes } from "./scopes.ts";
 * import type { Config } from "../config/mod.ts";
 * const needs = requiredScopes({} as Config);
 * const send = needs.find((n) => n.scope === "im:message:send_as_bot");
 * const names = needs.find((n) => n.scope === "contact:user.base:readonly");
 * if (!send || send.optional || !names?.optional) throw new Error();
 * ```
 */
export function requiredScopes(config: Config): ScopeNeed[] {
  const out = new Map<string, ScopeNeed>();
  for (const f of FEATURE_SCOPES) {
    if (!f.enabled(config)) continue;
    for (const s of f.scopes) {
      const seen = out.get(s.scope);
      if (seen) seen.optional &&= f.optional;
      else out.set(s.scope, { ...s, feature: f.feature, optional: f.optional });
    }
  }
  return [...out.values()];
}

/**
 * The developer-console page where `scope` is granted to `appId`. The base
 * URL is the account's resolved domain: `https://open.feishu.cn`,
 * `https://open.larksuite.com`, or a custom base such as the emulator's.
 *
 * @example
 * ```ts
 * import { consoleScopeLink } from "./scopes.ts";
 * const link = consoleScopeLink("https://open.feishu.cn", "cli_a1b2c3d4e5f6a7b8", "im:message");
 * if (link !== "https://open.feishu.cn/app/cli_a1b2c3d4e5f6a7b8/auth?q=im:message") throw new Error(link);
 * ```
 */
export function consoleScopeLink(baseUrl: string, appId: string, scope: string): string {
  // Colons are legal in a query; keeping them makes the link readable.
  const q = encodeURIComponent(scope).replace(/%3A/gi, ":");
  return `${baseUrl.replace(/\/+$/, "")}/app/${encodeURIComponent(appId)}/auth?q=${q}`;
}
