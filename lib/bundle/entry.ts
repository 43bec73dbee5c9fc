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
import { useBundledModules } from "../core/lazy.ts";
import { LAZY_LOADERS } from "./lazy_modules.ts";
import { WORKER_MODULES } from "./workers.ts";

// The node-sdk's ES build reads its own package.json through `__dirname`,
// which an ES bundle does not define. Found nowhere, its version reads "unknown".
const scope = globalThis as { __dirname?: string; __filename?: string };
scope.__dirname ??= import.meta.dirname;
scope.__filename ??= import.meta.filename;

const kind = currentWorkerKind();
if (kind !== null) {
  // Loading the worker's module awaits, and the event loop may deliver a job
  // before that module has installed its `onmessage`: hold what arrives early
  // and hand it over once the real handler is in place.
  const self_ = globalThis as unknown as { onmessage: ((e: MessageEvent) => void) | null };
  const early: MessageEvent[] = [];
  const hold = (e: MessageEvent) => void early.push(e);
  self_.onmessage = hold;
  await WORKER_MODULES[kind]();
  const handler = self_.onmessage;
  if (handler && handler !== hold) { for (const e of early) handler(e); }
} else if (import.meta.main) {
  startWorkersFrom(new URL(import.meta.url));
  useBundledModules(LAZY_LOADERS);
  const [{ runCli }, { bundleApp }] = await Promise.all([
    import("../cli/mod.ts"),
    import("../launch/mod.ts"),
  ]);
  await runCli(
    bundleApp(import.meta.url, { execPath: Deno.execPath(), standalone: Deno.build.standalone }),
  );
}
