/**
 * The service: the composition root that wires config, store, Feishu accounts,
 * actions and the MCP app together for `serve` and `sandbox`.
 * @module
 */

export * from "./start.ts";
export * from "./about.ts";
export * from "./status.ts";
export * from "./resources.ts";
