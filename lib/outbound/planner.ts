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
 * - each job runs in a worker of its own (the core's `JobRunner`: a small
 *   pool, one idle worker kept warm), so an ordinary call never waits behind
 *   a heavy one; only past
 *   {@link MAX_PLAN_WORKERS} concurrent heavy jobs do jobs queue;
 * - a job that runs past its time budget (counted from when its worker has
 *   loaded) has its worker terminated and fails with a `FORMAT_ERROR` that
 *   names the budget.
 *
 * Results and errors (`BridgeError`s keep their code) are the same either way.
 * @module
 */

import { BridgeError, type Clock, JobRunner, systemClock } from "../core/mod.ts";
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

/** A job for the worker, as the planner asks it. */
export type PlanRequest =
  | { op: "materialise"; content: NormalisedContent; options: MaterialiseOptions }
  | {
    op: "planEdit";
    target: EditTarget;
    content: NormalisedContent;
    options: MaterialiseOptions;
  };

/** A job as the worker receives it: with the id its answer carries. */
export type PlanJob = PlanRequest & { id: number };

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

/** The worker's answer to one job. */
export type PlanAnswer =
  | { id: number; ok: true; value: Materialised | EditPlan }
  | { id: number; ok: false; error: PlanError };

/** What the worker posts: an answer, or, once at start, that it has loaded and serves. */
export type PlanReply = { ready: true } | PlanAnswer;

/** Runs one job inline (the worker calls this too). */
export function runPlanJob(job: PlanRequest): Materialised | EditPlan {
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

/** Materialises and plans edits, in a worker when the markdown is large. */
export class Planner {
  readonly #threshold: number;
  readonly #budgetMs: number;
  readonly #runner: JobRunner<PlanRequest, PlanAnswer>;
  #closed = false;

  constructor(options: PlannerOptions = {}) {
    this.#threshold = options.threshold ?? OFF_THREAD_THRESHOLD;
    this.#budgetMs = options.budgetMs ?? PLAN_BUDGET_MS;
    this.#runner = new JobRunner({
      kind: "plan",
      source: new URL("./planner_worker.ts", import.meta.url),
      clock: options.clock ?? systemClock,
      maxWorkers: options.maxWorkers ?? MAX_PLAN_WORKERS,
      errors: {
        closed: () => new Error("Expected an open planner but found it closed"),
        crashed: (message) => new Error(`Materialisation worker failed: ${message}`),
      },
    });
  }

  /** {@link materialise}, off the main thread when heavy. */
  materialise(content: NormalisedContent, options: MaterialiseOptions = {}): Promise<Materialised> {
    return this.#run({ op: "materialise", content, options }) as Promise<Materialised>;
  }

  /** {@link planEdit}, off the main thread when heavy. */
  planEdit(
    target: EditTarget,
    content: NormalisedContent,
    options: MaterialiseOptions = {},
  ): Promise<EditPlan> {
    return this.#run({ op: "planEdit", target, content, options }) as Promise<EditPlan>;
  }

  /** Whether a content would be planned in a worker. */
  offThread(content: NormalisedContent): boolean {
    return markdownWeight(content) > this.#threshold;
  }

  /** Jobs running in workers and jobs waiting for one (for tests and status). */
  load(): { running: number; queued: number } {
    return this.#runner.load();
  }

  /** Stops every worker; pending jobs reject. */
  close(): void {
    this.#closed = true;
    this.#runner.close();
  }

  [Symbol.dispose](): void {
    this.close();
  }

  #run(job: PlanRequest): Promise<Materialised | EditPlan> {
    // A closed planner refuses every job, even one it would run inline.
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
    return this.#runner.run<Materialised | EditPlan>({
      request: job,
      // The budget counts from when the worker has loaded, not from the spawn.
      limit: { ms: this.#budgetMs, from: "posted", expire: () => this.#overrun() },
      answer: (reply) =>
        reply.ok
          ? { ok: true, value: reply.value }
          : { ok: false, error: fromPlanError(reply.error) },
    });
  }

  /** The job ran past its budget: its worker is stopped, the job fails. */
  #overrun(): { ok: false; error: BridgeError } {
    const seconds = Math.round(this.#budgetMs / 100) / 10;
    return {
      ok: false,
      error: new BridgeError(
        "FORMAT_ERROR",
        `markdown took longer than ${seconds} s to plan (the budget of one message); ` +
          `send shorter or simpler markdown`,
      ),
    };
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
