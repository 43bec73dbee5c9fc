/**
 * Which projection of the `feishu` schema a client is shown. LingTai's host
 * adapters read the original's exact shape (`ltp`); every other client gets
 * the flat `portable` shape, which survives what common clients and model
 * APIs do to a schema. Validation is the same for both.
 * @module
 */

import type { ToolProjection } from "./family/tool.ts";
import type { ClientIdentity } from "./server.ts";

/**
 * Resolves the config's `tool_schema` for one client: `auto` means `ltp` for
 * LingTai (its client name says so, or the server runs in a LingTai agent
 * directory) and `portable` for everyone else.
 *
 * @example
 * ```ts
 * import { chooseProjection } from "./projection.ts";
 * import assert from "node:assert/strict";
 * const claude = { name: "claude-code", version: "2.1.332" };
 * assert.equal(chooseProjection("auto", claude, { lingtaiAgentDir: false }), "portable");
 * assert.equal(chooseProjection("auto", claude, { lingtaiAgentDir: true }), "ltp");
 * assert.equal(chooseProjection("auto", { name: "LingTai", version: null }, { lingtaiAgentDir: false }), "ltp");
 * assert.equal(chooseProjection("ltp", claude, { lingtaiAgentDir: false }), "ltp");
 * ```
 */
export function chooseProjection(
  setting: "auto" | ToolProjection,
  client: ClientIdentity,
  where: { lingtaiAgentDir: boolean },
): ToolProjection {
  if (setting !== "auto") return setting;
  const lingtai = where.lingtaiAgentDir || /lingtai/i.test(client.name ?? "");
  return lingtai ? "ltp" : "portable";
}
