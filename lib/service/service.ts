/**
 * The shape of a started service, running or degraded, as `serve` and the
 * tests see it.
 * @module
 */

import type { RecordedListener } from "../conversation/mod.ts";
import type { InboundSeams } from "../inbound/mod.ts";
import type { McpApp } from "../mcp/mod.ts";
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
