/**
 * Entry of the single-file bundle (`deno task bundle` → `dist/feishu-mcp.js`)
 * and of the compiled binary built from it.
 *
 * On the main thread it runs the command line as `main.ts` does, and makes
 * every worker start from this same file. Started as a worker (its `name`
 * says which kind, see `lib/core/worker.ts`), it loads that worker's module
 * instead. Everything else is imported lazily, so a worker evaluates only
 * its own modules and the shim below runs before any npm code.
 * @module
 */

import { currentWorkerKind, startWorkersFrom } from "../core/worker.ts";
import { WORKER_MODULES } from "./workers.ts";

// The node-sdk's ES build reads its own package.json through `__dirname`,
// which an ES bundle does not define. Found nowhere, its version reads "unknown".
const scope = globalThis as { __dirname?: string; __filename?: string };
scope.__dirname ??= import.meta.dirname;
scope.__filename ??= import.meta.filename;

const kind = currentWorkerKind();
if (kind !== null) {
  await WORKER_MODULES[kind]();
} else if (import.meta.main) {
  startWorkersFrom(new URL(import.meta.url));
  const { bundleApp, runCli } = await import("../launch/mod.ts");
  await runCli(
    bundleApp(import.meta.url, { execPath: Deno.execPath(), standalone: Deno.build.standalone }),
  );
}
