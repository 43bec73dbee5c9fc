/**
 * The module of every worker kind, for the bundle entry: started as a worker,
 * the bundle imports the module of its kind, whose guarded top level
 * (`serveWorker`) starts serving. Typed by `WorkerKind`, so a kind added in
 * `lib/core/worker.ts` does not type-check until it is registered here.
 * (These are worker entry modules, imported directly rather than through the
 * folder's `mod.ts`.)
 * @module
 */

import type { WorkerKind } from "../core/mod.ts";

/** Loads the module of a worker kind; loading it starts the worker. */
export const WORKER_MODULES: Record<WorkerKind, () => Promise<unknown>> = {
  search: () => import("../store/search_worker.ts"),
  decode: () => import("../inbound/transcribe/decode_worker.ts"),
  plan: () => import("../outbound/planner_worker.ts"),
};
