/**
 * Materialisation and edit planning, off the main thread when they are heavy.
 * Parsing markdown runs at roughly 0.25 MB/s here (0.4 s per 100 KB), long
 * enough to stall stdio and the long connection's ACKs, so markdown above a
 * threshold goes to a Worker that runs the same pure functions; small inputs
 * (and anything within one chunk, which is never parsed) run inline. Results
 * and errors (`BridgeError`s keep their code) are the same either way.
 * @module
 */

import { BridgeError, spawnWorker } from "../core/mod.ts";
import { type EditPlan, type EditTarget, planEdit } from "./edit_plan.ts";
import { materialise, type Materialised, type MaterialiseOptions } from "./materialise.ts";
import type { NormalisedContent } from "./types.ts";

/**
 * Markdown longer than this many UTF-16 units is planned in the worker
 * (about 60 ms of parsing: the most the main thread may spend on it).
 */
export const OFF_THREAD_THRESHOLD = 16 * 1024;

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

/** The worker's answer. */
export type PlanReply =
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
  /** Markdown weight above which jobs go to the worker (default {@link OFF_THREAD_THRESHOLD}). */
  threshold?: number;
}

/** Materialises and plans edits, in a worker when the markdown is large. */
export class Planner {
  readonly #threshold: number;
  #worker: Worker | null = null;
  #nextId = 1;
  readonly #pending = new Map<number, { resolve(v: unknown): void; reject(e: unknown): void }>();
  #closed = false;

  constructor(options: PlannerOptions = {}) {
    this.#threshold = options.threshold ?? OFF_THREAD_THRESHOLD;
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

  /** Whether a content would be planned in the worker. */
  offThread(content: NormalisedContent): boolean {
    return markdownWeight(content) > this.#threshold;
  }

  /** Stops the worker; pending jobs reject. */
  close(): void {
    this.#closed = true;
    this.#kill(new Error("Expected an open planner but found it closed"));
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
    const worker = this.#ensureWorker();
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      worker.postMessage({ ...job, id });
    });
  }

  #ensureWorker(): Worker {
    if (this.#worker !== null) return this.#worker;
    const worker = spawnWorker("plan", { source: new URL("./planner_worker.ts", import.meta.url) });
    worker.onmessage = (ev: MessageEvent<PlanReply>) => {
      const reply = ev.data;
      const waiter = this.#pending.get(reply.id);
      if (waiter === undefined) return;
      this.#pending.delete(reply.id);
      if (reply.ok) waiter.resolve(reply.value);
      else waiter.reject(fromPlanError(reply.error));
    };
    worker.onerror = (ev) => {
      ev.preventDefault();
      this.#kill(new Error(`Materialisation worker failed: ${ev.message}`));
    };
    this.#worker = worker;
    return worker;
  }

  #kill(reason: Error): void {
    this.#worker?.terminate();
    this.#worker = null;
    for (const waiter of this.#pending.values()) waiter.reject(reason);
    this.#pending.clear();
  }
}
