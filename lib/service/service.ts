/**
 * The shape of a started service, running or degraded, as `serve` and the
 * tests see it.
 * @module
 */

import type { McpApp } from "../mcp/mod.ts";
import type { PermissionRelay } from "../permission/mod.ts";
import type { ServiceStatus } from "./status.ts";

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
