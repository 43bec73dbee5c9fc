/**
 * The argv (after `deno`) of the servers the startup benchmarks spawn: the
 * bare MCP SDK baseline, and our server already confined, started directly
 * (without the launcher's re-exec).
 */

import { join } from "node:path";
import { REPO } from "../tests/_server.ts";

/** The bare MCP SDK server of `_bare_server.ts`. */
export function bareServerArgs(): string[] {
  return [
    "run",
    "--no-prompt",
    "--allow-env",
    "--allow-read",
    join(REPO, "bench", "_bare_server.ts"),
  ];
}

/** Our server with the confined permissions, on `workdir`. */
export function confinedServerArgs(workdir: string): string[] {
  return [
    "run",
    "--no-prompt",
    `--allow-read=${REPO},${workdir}`,
    `--allow-write=${workdir}`,
    "--allow-env",
    join(REPO, "main.ts"),
    "serve",
    "--confined",
    "--workdir",
    workdir,
  ];
}
