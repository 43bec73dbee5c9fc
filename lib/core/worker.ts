/**
 * Web Workers that run the same from source and from the single-file bundle.
 *
 * From source, a worker starts from its own module (`search_worker.ts`, …).
 * A bundle has no such files: it is one module, so it starts ITSELF as every
 * worker and tells them apart by the worker's `name` (`feishu-mcp:<kind>`);
 * the bundle entry (`lib/bundle/entry.ts`) reads the name and loads that
 * kind's module instead of starting the app.
 *
 * Adding a worker:
 * 1. add its kind to {@link WORKER_KINDS};
 * 2. write `lib/<capability>/<kind>_worker.ts` exporting a `serve…()` function,
 *    whose only top-level effect is `serveWorker("<kind>", serve…)` (in a
 *    bundle a module's top level may run in any thread; the guard makes it a
 *    no-op outside a worker of that kind);
 * 3. run its jobs with a `JobRunner` (`job_runner.ts`) of that kind and
 *    `source: new URL("./<kind>_worker.ts", import.meta.url)`; the runner
 *    spawns the worker here, posts `{ ...request, id }` once the worker has
 *    posted `{ ready: true }`, and reads the answers carrying that id;
 * 4. register its loader in `lib/bundle/workers.ts` (`deno check` fails until you do).
 * @module
 */

/** Every kind of worker the app starts. */
export const WORKER_KINDS = ["search", "decode", "plan"] as const;

/** One of {@link WORKER_KINDS}. */
export type WorkerKind = typeof WORKER_KINDS[number];

const NAME_PREFIX = "feishu-mcp:";

/** Where workers start from when the app runs as one file; null from source. */
let selfModule: URL | null = null;

/**
 * The `name` a worker of this kind is started with.
 *
 * @example
 * ```ts
 * import { workerName } from "./worker.ts";
 * if (workerName("search") !== "feishu-mcp:search") throw new Error();
 * ```
 */
export function workerName(kind: WorkerKind): string {
  return NAME_PREFIX + kind;
}

/**
 * The kind of worker this realm is, read from its `name`; null on the main
 * thread and in workers the app did not start.
 *
 * @example On the main thread
 * ```ts
 * import { currentWorkerKind } from "./worker.ts";
 * if (currentWorkerKind() !== null) throw new Error();
 * ```
 */
export function currentWorkerKind(): WorkerKind | null {
  const name = (globalThis as { name?: unknown }).name;
  if (typeof name !== "string" || !name.startsWith(NAME_PREFIX)) return null;
  const kind = name.slice(NAME_PREFIX.length);
  return (WORKER_KINDS as readonly string[]).includes(kind) ? kind as WorkerKind : null;
}

/**
 * Runs `serve` when this realm is a worker of `kind`, and does nothing
 * anywhere else. The one top-level statement a worker module may have.
 */
export function serveWorker(kind: WorkerKind, serve: () => void): void {
  if (currentWorkerKind() === kind) serve();
}

/**
 * Makes every later {@link spawnWorker} start `module` (the bundle itself)
 * instead of the worker's source file. Called once by the bundle entry;
 * `null` goes back to source mode.
 */
export function startWorkersFrom(module: URL | null): void {
  selfModule = module;
}

/** Options of {@link spawnWorker}. */
export interface SpawnWorkerOptions {
  /** The worker's own module, used when running from source. */
  source: URL;
}

/**
 * Starts a module worker of `kind`, named {@link workerName}, from its source
 * module or, in a bundle, from the bundle itself.
 */
export function spawnWorker(kind: WorkerKind, options: SpawnWorkerOptions): Worker {
  return new Worker(selfModule ?? options.source, { type: "module", name: workerName(kind) });
}
