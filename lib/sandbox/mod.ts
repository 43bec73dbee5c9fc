/**
 * `sandbox`: the loopback Feishu emulator with its web chat page, the bridge
 * and a demo agent. (Wired once the emulator lands.)
 * @module
 */

import type { LaunchOptions } from "../config/mod.ts";

/** Runs the sandbox until interrupted. */
export function runSandbox(_launch: LaunchOptions): Promise<void> {
  return Promise.reject(new Error("sandbox is not wired yet"));
}
