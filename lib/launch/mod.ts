/**
 * Launching: what the running app is and how it starts itself again, the
 * confinement of `serve` (re-executing with narrowed permissions), and the
 * permission flags of the confined server, computed from the launch options
 * and the config.
 * @module
 */

export { type App, bundleApp, serveCommand, sourceApp } from "./app.ts";
export { ensureConfined, fail } from "./confine.ts";
export { confinedFlags, hostsFor } from "./permissions.ts";
