/**
 * The service: the composition root that wires config, store, Feishu accounts,
 * actions and the MCP app together for `serve` and `sandbox`.
 * @module
 */

export { serve } from "./serve.ts";
