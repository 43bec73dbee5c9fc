/**
 * What `setup` prints once the config is written: the steps only a person
 * can take in the developer console (events and the card callback on the
 * long connection, the scopes with a link each, publishing a version) and
 * the MCP client entry to paste. The event list, the scope table and the
 * start command come from the modules that own them, so the text cannot
 * drift from what the server handles.
 * @module
 */

import { consoleScopeLink, FEATURE_SCOPES } from "../canary/scopes.ts";
import { EVENT_TYPES } from "../inbound/events.ts";
import { type App, serveCommand } from "../launch/mod.ts";

/** The event every message arrives as; the passive ones follow from {@link EVENT_TYPES}. */
const MESSAGE_EVENT = "im.message.receive_v1";
/** The callback every card click arrives as. */
const CARD_CALLBACK = "card.action.trigger";

/** Every event the server handles, the message event first. */
export function eventsToSubscribe(): string[] {
  return [MESSAGE_EVENT, ...Object.keys(EVENT_TYPES)];
}

/** The callbacks to subscribe. */
export function callbacksToSubscribe(): string[] {
  return [CARD_CALLBACK];
}

/** Every scope of the scope table, once each. */
export function scopesToGrant(): { scope: string; reason: string; optional: boolean }[] {
  const seen = new Map<string, { scope: string; reason: string; optional: boolean }>();
  for (const f of FEATURE_SCOPES) {
    for (const s of f.scopes) {
      const known = seen.get(s.scope);
      if (known) known.optional &&= f.optional;
      else seen.set(s.scope, { scope: s.scope, reason: s.reason, optional: f.optional });
    }
  }
  return [...seen.values()];
}

/**
 * The steps left to a person, as lines.
 *
 * @example
 * ```ts
 * import { manualSteps } from "./next_steps.ts";
 * const text = manualSteps("https://open.feishu.cn", "cli_a1b2c3d4e5f6a7b8").join("\n");
 * if (!text.includes("im.message.receive_v1") || !text.includes("card.action.trigger")) throw new Error();
 * if (!text.includes("https://open.feishu.cn/app/cli_a1b2c3d4e5f6a7b8/auth?q=im:message")) throw new Error();
 * ```
 */
export function manualSteps(baseUrl: string, appId: string): string[] {
  const consoleUrl = `${baseUrl.replace(/\/+$/, "")}/app/${encodeURIComponent(appId)}`;
  return [
    `Left to do by hand, in the developer console (${consoleUrl}):`,
    "  1. Scopes: grant each (the link opens the console on it):",
    ...scopesToGrant().map((s) =>
      `     - ${s.scope}${s.optional ? " (optional)" : ""}: ${s.reason}\n       ` +
      consoleScopeLink(baseUrl, appId, s.scope)
    ),
    "  2. Events & callbacks: choose the long connection (start the server first: the console",
    "     saves a long-connection subscription only while a client is connected), then subscribe",
    `     events: ${eventsToSubscribe().join(", ")}`,
    `     callback: ${
      callbacksToSubscribe().join(", ")
    } (without it every card click fails with 200340)`,
    "  3. Publish a version (after every change of scopes, events or callbacks; a tenant may need",
    "     an administrator's approval).",
  ];
}

/** The `mcpServers` entry that starts the bridge on this config, as pretty JSON. */
export function mcpEntry(app: App, target: { configPath: string; workdir: string }): string {
  return JSON.stringify({ mcpServers: { feishu: serveCommand(app, target) } }, null, 2);
}
