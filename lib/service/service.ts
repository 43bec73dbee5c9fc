/**
 * The shape of a started service, running or degraded, as `serve` and the
 * tests see it.
 * @module
 */

import type { RecordedListener } from "../conversation/mod.ts";
import type { InboundSeams } from "../inbound/mod.ts";
import { type McpApp, validateToolCall } from "../mcp/mod.ts";
import type { ValidatedCall } from "../mcp/family/mod.ts";
import { manualResult } from "../actions/mod.ts";
import type { LaunchOptions } from "../config/mod.ts";
import { VERSION } from "./about.ts";
import { readResource } from "./resources.ts";
import type { PushTarget } from "../notify/mod.ts";
import type { WorkdirLock } from "../store/mod.ts";
import type { PermissionRelay } from "../permission/mod.ts";
import type { McpView, ServiceStatus } from "./status.ts";

/** What the MCP server asks of a started service (the rest it answers itself). */
export type ServiceApp = Pick<McpApp, "callTool" | "readResource">;

/** A started service. */
export interface Service {
  app: ServiceApp;
  /** The permission relay (tool prompts answered from Feishu), when it runs. */
  permission: PermissionRelay | null;
  status(): ServiceStatus;
  close(): Promise<void>;
}

/** Options of `startService`. */
export interface ServiceOptions {
  /** The workdir lock, held for the service's life (released by `close`). */
  lock: WorkdirLock;
  /** Where MCP push notifications go. */
  push: PushTarget;
  /** The MCP side of the status (era, client, published schema). */
  mcp?: () => McpView;
  /** Extra inbound seams (tests): their card steps replace the product's, commands run first. */
  seams?: InboundSeams;
  /** Extra listeners of the conversation log (tests). */
  listeners?: readonly RecordedListener[];
}

/**
 * The MCP-facing app of a service: strict validation, `manual` answered
 * locally, every other call to `act`; the resources read from `status` and
 * `inbox`.
 */
export function serviceApp(
  launch: LaunchOptions,
  parts: {
    act(call: ValidatedCall): Promise<Record<string, unknown>>;
    status(): ServiceStatus;
    inbox(): Record<string, unknown>;
  },
): ServiceApp {
  return {
    callTool(args) {
      const v = validateToolCall(args);
      if (!v.ok) return Promise.resolve(v.failure);
      if (v.call.action === "manual") return Promise.resolve(manualResult());
      return parts.act(v.call);
    },
    readResource: (uri) =>
      Promise.resolve(readResource(uri, {
        version: VERSION,
        mcpName: launch.mcpName,
        status: parts.status,
        inbox: parts.inbox,
      })),
  };
}
