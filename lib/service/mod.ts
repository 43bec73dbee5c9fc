/**
 * The service: `serve` speaks MCP on stdio and loads the composition root
 * after the handshake (`start.ts`: config and store, then the running service
 * of `running.ts` or a degraded answerer), with the resources, the typed
 * status, the local-commands wiring and the operational snapshots `doctor`
 * reads. The sandbox runs the same `serve` as a child process.
 * @module
 */

export { serve } from "./serve.ts";
