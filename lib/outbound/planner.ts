/**
 * Materialisation and edit planning, off the main thread when they are heavy.
 * Parsing markdown runs at roughly 0.25 MB/s on ordinary text and far slower
 * on crafted input (a long list nested a few levels deep takes seconds per
 * 10 KB), long enough to stall stdio and the long connection's ACKs. So:
 *
 * - markdown nested past {@link MAX_MARKDOWN_NESTING} is refused on the main
 *   thread by a linear pre-scan, before any parse (`FORMAT_ERROR`);
 * - markdown above a small threshold is planned in a Worker running the same
 *   pure functions; inputs below it run inline;
 * - each job runs in a worker of its own (a small pool, one idle worker kept
 *   warm), so an ordinary call never waits behind a heavy one; only past
 *   {@link MAX_PLAN_WORKERS} concurrent heavy jobs do jobs queue;
 * - a job that runs past its time budget (counted from when its worker has
 *   loaded) has its worker terminated and fails with a `FORMAT_ERROR` that
 *   names the budget.
 *
 * Results and errors (`BridgeError`s keep their code) are the same either way.
 * @module
 */

import { BridgeError, type Clock, spawnWorker, systemClock } from "../core/mod.ts";
import { assertMarkdownNesting } from "./markdown/mod.ts";
import { type EditPlan, type EditTarget, planEdit } from "./edit_plan.ts";
import { materialise, type Materialised, type MaterialiseOptions } from "./materialise.ts";
import type { NormalisedContent } from "./types.ts";

/**
 * Markdown longer than this many UTF-16 units is planned in a worker: below
 * it, even crafted input parses in a few milliseconds on the main thread.
 */
export const OFF_THREAD_THRESHOLD = 1024;

/** How long one job may run in a worker before it is stopped. */
export const PLAN_BUDGET_MS = 10_000;

/** Workers that may run jobs at once; further heavy jobs queue. */
export const MAX_PLAN_WORKERS = 4;

/** A job for the worker. */
export type PlanJob =
  | { id: number; op: "materialise"; content: NormalisedContent; options: MaterialiseOptions }
  | {
    id: number;
    op: "planEdit";
    target: EditTarget;
    content: NormalisedContent;
    options: MaterialiseOptions;
  };

/** A `BridgeError` or another error, as plain data across the worker boundary. */
export type PlanError =
  | {
    bridge: true;
    code: BridgeError["code"];
    message: string;
    retryable: boolean;
    retryAfterSeconds: number | null;
  }
  | { bridge: false; name: string; message: string };

/** The worker's answer (or, once at start, that it has loaded and serves). */
export type PlanReply =
  | { ready: true }
  | { id: number; ok: true; value: Materialised | EditPlan }
  | { id: number; ok: false; error: PlanError };

/** Runs one job inline (the worker calls this too). */
export function runPlanJob(job: PlanJob): Materialised | EditPlan {
  return job.op === "materialise"
    ? materialise(job.content, job.options)
    : planEdit(job.target, job.content, job.options);
}

/** An error as plain data. */
export function toPlanError(err: unknown): PlanError {
  if (err instanceof BridgeError) {
    return {
      bridge: true,
      code: err.code,
      message: err.message,
      retryable: err.retryable,
      retryAfterSeconds: err.retryAfterSeconds,
    };
  }
  const e = err instanceof Error ? err : new Error(String(err));
  return { bridge: false, name: e.name, message: e.message };
}

/** Plain error data back as a thrown value. */
export function fromPlanError(error: PlanError): Error {
  if (error.bridge) {
    return new BridgeError(error.code, error.message, {
      retryable: error.retryable,
      retryAfterSeconds: error.retryAfterSeconds,
    });
  }
  const e = new Error(error.message);
  e.name = error.name;
  return e;
}

/**
 * How much parsing a content needs: the length of its markdown (a caption
 * is markdown too); 0 for everything else.
 *
 * @example
 * ```ts
 * import { markdownWeight } from "./planner.ts";
 * const md = { type: "markdown", recordContent: { type: "markdown", markdown: "# hi" }, previewText: "# hi", messageType: "post" } as const;
 * if (markdownWeight(md) !== 4) throw new Error();
 * ```
 */
export function markdownWeight(content: NormalisedContent): number {
  if (content.type === "markdown") return String(content.recordContent.markdown ?? "").length;
  return content.media?.caption?.length ?? 0;
}

/** Options of {@link Planner}. */
export interface PlannerOptions {
  /** Markdown weight above which jobs go to a worker (default {@link OFF_THREAD_THRESHOLD}). */
  threshold?: number;
  /** Time budget of one job in a worker (default {@link PLAN_BUDGET_MS}). */
  budgetMs?: number;
  /** Workers that may run at once (default {@link MAX_PLAN_WORKERS}). */
  maxWorkers?: number;
  /** Times the budget (default: the real clock). */
  clock?: Clock;
}

/** A job waiting for, or running in, a worker. */
interface Task {
  job: PlanJob;
  resolve(v: unknown): void;
  reject(e: unknown): void;
}

/** A job running in its worker, with the timer of its budget. */
interface Running {
  task: Task;
  timer: AbortController;
}

/** Workers that have loaded their code (the budget counts from then, not from the spawn). */
const READY = new WeakSet<Worker>();

/** Materialises and plans edits, in a worker when the markdown is large. */
export class Planner {
  readonly #threshold: number;
  readonly #budgetMs: number;
  readonly #maxWorkers: number;
  readonly #clock: Clock;
  /** At most one warm worker waits for the next job. */
  #idle: Worker | null = null;
  readonly #running = new Map<Worker, Running>();
  readonly #queue: Task[] = [];
  #nextId = 1;
  #closed = false;

  constructor(options: PlannerOptions = {}) {
    this.#threshold = options.threshold ?? OFF_THREAD_THRESHOLD;
    this.#budgetMs = options.budgetMs ?? PLAN_BUDGET_MS;
    this.#maxWorkers = Math.max(1, options.maxWorkers ?? MAX_PLAN_WORKERS);
    this.#clock = options.clock ?? systemClock;
  }

  /** {@link materialise}, off the main thread when heavy. */
  materialise(content: NormalisedContent, options: MaterialiseOptions = {}): Promise<Materialised> {
    return this.#run({ id: 0, op: "materialise", content, options }) as Promise<Materialised>;
  }

  /** {@link planEdit}, off the main thread when heavy. */
  planEdit(
    target: EditTarget,
    content: NormalisedContent,
    options: MaterialiseOptions = {},
  ): Promise<EditPlan> {
    return this.#run({ id: 0, op: "planEdit", target, content, options }) as Promise<EditPlan>;
  }

  /** Whether a content would be planned in a worker. */
  offThread(content: NormalisedContent): boolean {
    return markdownWeight(content) > this.#threshold;
  }

  /** Jobs running in workers and jobs waiting for one (for tests and status). */
  load(): { running: number; queued: number } {
    return { running: this.#running.size, queued: this.#queue.length };
  }

  /** Stops every worker; pending jobs reject. */
  close(): void {
    this.#closed = true;
    const reason = new Error("Expected an open planner but found it closed");
    this.#idle?.terminate();
    this.#idle = null;
    for (const [worker, r] of this.#running) {
      r.timer.abort();
      worker.terminate();
      r.task.reject(reason);
    }
    this.#running.clear();
    for (const task of this.#queue.splice(0)) task.reject(reason);
  }

  [Symbol.dispose](): void {
    this.close();
  }

  #run(job: PlanJob): Promise<Materialised | EditPlan> {
    if (this.#closed) {
      return Promise.reject(new Error("Expected an open planner but found it closed"));
    }
    if (!this.offThread(job.content)) {
      try {
        return Promise.resolve(runPlanJob(job));
      } catch (err) {
        return Promise.reject(err);
      }
    }
    try {
      // Linear and cheap: hopeless input never reaches a worker.
      assertJobNesting(job.content);
    } catch (err) {
      return Promise.reject(err);
    }
    return new Promise((resolve, reject) => {
      this.#queue.push({ job: { ...job, id: this.#nextId++ }, resolve, reject });
      this.#pump();
    });
  }

  /** Starts queued jobs while workers are free. */
  #pump(): void {
    while (this.#queue.length > 0 && this.#running.size < this.#maxWorkers) {
      const task = this.#queue.shift()!;
      const worker = this.#idle ?? this.#spawn();
      this.#idle = null;
      const timer = new AbortController();
      this.#running.set(worker, { task, timer });
      if (READY.has(worker)) this.#arm(worker, timer);
      worker.postMessage(task.job);
    }
  }

  /** Starts the budget of the job running in `worker`. */
  #arm(worker: Worker, timer: AbortController): void {
    this.#clock.sleep(this.#budgetMs, timer.signal).then(
      () => this.#overrun(worker),
      () => {/* answered in time */},
    );
  }

  #spawn(): Worker {
    const worker = spawnWorker("plan", { source: new URL("./planner_worker.ts", import.meta.url) });
    worker.onmessage = (ev: MessageEvent<PlanReply>) => {
      const r = this.#running.get(worker);
      if ("ready" in ev.data) {
        READY.add(worker);
        if (r !== undefined) this.#arm(worker, r.timer);
        return;
      }
      if (r === undefined || r.task.job.id !== ev.data.id) return;
      this.#running.delete(worker);
      r.timer.abort();
      if (this.#idle === null && !this.#closed) this.#idle = worker;
      else worker.terminate();
      const reply = ev.data;
      if (reply.ok) r.task.resolve(reply.value);
      else r.task.reject(fromPlanError(reply.error));
      this.#pump();
    };
    worker.onerror = (ev) => {
      ev.preventDefault();
      this.#drop(worker, new Error(`Materialisation worker failed: ${ev.message}`));
    };
    return worker;
  }

  /** The job ran past its budget: its worker is stopped, the job fails. */
  #overrun(worker: Worker): void {
    const seconds = Math.round(this.#budgetMs / 100) / 10;
    this.#drop(
      worker,
      new BridgeError(
        "FORMAT_ERROR",
        `markdown took longer than ${seconds} s to plan (the budget of one message); ` +
          `send shorter or simpler markdown`,
      ),
    );
  }

  #drop(worker: Worker, reason: Error): void {
    worker.terminate();
    if (this.#idle === worker) this.#idle = null;
    const r = this.#running.get(worker);
    if (r !== undefined) {
      this.#running.delete(worker);
      r.timer.abort();
      r.task.reject(reason);
    }
    this.#pump();
  }
}

/** The nesting pre-scan of a job's markdown (its caption, for media). */
function assertJobNesting(content: NormalisedContent): void {
  if (content.type === "markdown") {
    assertMarkdownNesting(String(content.recordContent.markdown ?? ""));
  } else if (content.media?.caption !== undefined) {
    assertMarkdownNesting(content.media.caption, "the caption");
  }
}
