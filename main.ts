/**
 * feishu-mcp entry point (from source; the bundle's is `lib/bundle/entry.ts`).
 *
 * - `serve` (default): MCP over stdio. Started unconfined (as `deno task start`
 *   does), it re-executes itself with permissions narrowed to the workdir, the
 *   config file, the media roots and the Feishu hosts.
 * - `sandbox`: the loopback Feishu emulator, its web chat page, the bridge and
 *   a demo agent, for trying the whole loop without a tenant.
 * - `canary`: checks a real tenant end to end (token, bot, scopes, long
 *   connection, a DM, a card click) and exits 0 only when all pass.
 * - `doctor`: a read-only health report of a workdir.
 *
 * `--help` (`-h`), alone or after any subcommand, prints its options.
 * @module
 */

import { runCli } from "./lib/cli/mod.ts";
import { sourceApp } from "./lib/launch/mod.ts";

if (import.meta.main) await runCli(sourceApp(import.meta.url, Deno.execPath()));
