/**
 * The one way the app hands jobs to its Web Workers (`spawnWorker`,
 * `worker.ts`): a job gets an id and is posted once its worker has said
 * `{ ready: true }`; only answers carrying that id are read; a job that runs
 * out of time, or whose caller aborts, ends its worker (the only way to stop a
 * busy one) and the next job starts a fresh one; `close` ends every worker
 * and rejects every job not yet answered.
 *
 * Up to `maxWorkers` jobs run at once, each in a worker of its own; further
 * jobs queue in order. One idle worker is kept warm for the next job.
 *
 * The wire protocol: the runner posts `{ ...request, id }`; the worker
 * answers with messages carrying the same `id` (as many as the job needs, the
 * job's {@link WorkerJob.answer} says which one ends it).
 * @module
 */

import type { Clock } from "./clock.ts";
import { spawnWorker, type WorkerKind } from "./worker.ts";

/** How a job ended: a value, or an error its promise rejects with. */
export type JobOutcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** A job's hold on its own time limit, handed to {@link WorkerJob.answer}. */
export interface JobControl<T> {
  /** Starts the job's time limit again from now: `ms`, then `expire()` ends the job. */
  limit(ms: number, expire: () => JobOutcome<T>): void;
}

/** One job for a {@link JobRunner}. */
export interface WorkerJob<Q, R, T> {
  /** The request; posted with the job's `id` added. */
  request: Q;
  /** Buffers of `request` moved to the worker instead of copied. */
  transfer?: Transferable[];
  /** Aborting it ends the job (and, when it runs, its worker). */
  signal?: AbortSignal;
  /**
   * The job's time limit: from when it is given a worker (`dispatch`) or from
   * when it is posted to a worker that has loaded (`posted`). When it runs
   * out the worker is ended and `expire()` is the outcome.
   */
  limit?: { ms: number; from: "dispatch" | "posted"; expire(): JobOutcome<T> };
  /** Reads one answer of this job: an outcome ends it, undefined waits for the next. */
  answer(reply: R, control: JobControl<T>): JobOutcome<T> | undefined;
}

/** The errors a runner's jobs fail with, in its capability's words. */
export interface JobRunnerErrors {
  /** For jobs not yet answered when the runner closes. */
  closed(): Error;
  /** For jobs asked of a closed runner (default: {@link closed}). */
  refused?(): Error;
  /** The worker threw, or failed to load; `message` is the worker's error text. */
  crashed(message: string): Error;
  /** The worker's answer could not be read (default: {@link crashed}). */
  unreadable?(): Error;
  /** No worker could be started (default: the error itself). */
  cannotStart?(err: unknown): unknown;
  /** The job's signal aborted (default: the signal's reason). */
  aborted?(signal: AbortSignal): unknown;
}

/** Options of {@link JobRunner}. */
export interface JobRunnerOptions {
  kind: WorkerKind;
  /** The worker's module when running from source (a bundle starts itself). */
  source: URL;
  /** Times the jobs' limits. */
  clock: Clock;
  /** Jobs running at once, each in its own worker (default 1). */
  maxWorkers?: number;
  errors: JobRunnerErrors;
}

/** A worker and the job it runs. */
interface Slot {
  worker: Worker;
  /** It said `{ ready: true }`: its code has loaded and it listens. */
  ready: boolean;
  task: Task | null;
}

interface Task {
  id: number;
  // deno-lint-ignore no-explicit-any
  job: WorkerJob<object, any, unknown>;
  slot: Slot | null;
  posted: boolean;
  done: boolean;
  timer: AbortController | null;
  onAbort: () => void;
  resolve(value: unknown): void;
  reject(reason: unknown): void;
}

/**
 * Runs jobs in workers of one kind.
 *
 * @example Closing an unused runner starts no worker
 * ```ts
 * import { JobRunner } from "./job_runner.ts";
 * import { systemClock } from "./clock.ts";
 * const runner = new JobRunner({
 *   kind: "search",
 *   source: new URL("./missing_worker.ts", import.meta.url),
 *   clock: systemClock,
 *   errors: { closed: () => new Error("closed"), crashed: (m) => new Error(m) },
 * });
 * runner.close();
 * let message = "";
 * await runner.run({ request: {}, answer: () => undefined })
 *   .catch((e: Error) => (message = e.message));
 * if (message !== "closed") throw new Error(message);
 * ```
 */
export class JobRunner<Q extends object, R extends { id?: number }> {
  readonly #o: JobRunnerOptions;
  readonly #maxWorkers: number;
  #idle: Slot | null = null;
  readonly #busy = new Set<Slot>();
  #queue: Task[] = [];
  #nextId = 1;
  #closed = false;

  constructor(options: JobRunnerOptions) {
    this.#o = options;
    this.#maxWorkers = Math.max(1, options.maxWorkers ?? 1);
  }

  /** Runs one job; settles with its outcome. */
  run<T>(job: WorkerJob<Q, R, T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const e = this.#o.errors;
      if (this.#closed) return reject((e.refused ?? e.closed)());
      const signal = job.signal;
      if (signal?.aborted) return reject(e.aborted ? e.aborted(signal) : signal.reason);
      const task: Task = {
        id: this.#nextId++,
        job: job as Task["job"],
        slot: null,
        posted: false,
        done: false,
        timer: null,
        onAbort: () => this.#abort(task),
        resolve: resolve as (value: unknown) => void,
        reject,
      };
      signal?.addEventListener("abort", task.onAbort, { once: true });
      this.#queue.push(task);
      this.#pump();
    });
  }

  /** Jobs running in workers and jobs waiting for one. */
  load(): { running: number; queued: number } {
    return { running: this.#busy.size, queued: this.#queue.length };
  }

  /** Ends every worker and rejects every job not yet answered. Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#idle?.worker.terminate();
    this.#idle = null;
    const pending = [...[...this.#busy].map((s) => s.task!), ...this.#queue];
    for (const slot of this.#busy) slot.worker.terminate();
    this.#busy.clear();
    this.#queue = [];
    for (const task of pending) this.#settle(task, { ok: false, error: this.#o.errors.closed() });
  }

  [Symbol.dispose](): void {
    this.close();
  }

  /** Gives queued jobs a worker while fewer than `maxWorkers` run. */
  #pump(): void {
    while (!this.#closed && this.#queue.length > 0 && this.#busy.size < this.#maxWorkers) {
      const task = this.#queue.shift()!;
      let slot: Slot;
      try {
        slot = this.#idle ?? this.#spawn();
      } catch (err) {
        const e = this.#o.errors;
        this.#settle(task, { ok: false, error: e.cannotStart ? e.cannotStart(err) : err });
        continue;
      }
      this.#idle = null;
      slot.task = task;
      task.slot = slot;
      this.#busy.add(slot);
      const limit = task.job.limit;
      if (limit?.from === "dispatch") this.#arm(task, limit.ms, limit.expire);
      this.#post(slot);
    }
  }

  /** Posts the slot's job once its worker listens. */
  #post(slot: Slot): void {
    const task = slot.task;
    if (task === null || task.posted || !slot.ready) return;
    task.posted = true;
    const limit = task.job.limit;
    if (limit?.from === "posted") this.#arm(task, limit.ms, limit.expire);
    slot.worker.postMessage({ ...task.job.request, id: task.id }, task.job.transfer ?? []);
  }

  #arm(task: Task, ms: number, expire: () => JobOutcome<unknown>): void {
    task.timer?.abort();
    const timer = task.timer = new AbortController();
    this.#o.clock.sleep(ms, timer.signal).then(
      () => this.#end(task, expire(), true),
      () => {/* the job ended first, or its limit started again */},
    );
  }

  #spawn(): Slot {
    const worker = spawnWorker(this.#o.kind, { source: this.#o.source });
    const slot: Slot = { worker, ready: false, task: null };
    worker.onmessage = (event: MessageEvent<R | { ready: true }>) => {
      const data = event.data;
      if ("ready" in data) {
        slot.ready = true;
        this.#post(slot);
        return;
      }
      const task = slot.task;
      // An answer for a job already given up on cannot arrive: giving up ends the worker.
      if (task === null || data.id !== task.id) return;
      const outcome = task.job.answer(data, {
        limit: (ms, expire) => this.#arm(task, ms, expire as () => JobOutcome<unknown>),
      });
      if (outcome !== undefined) this.#end(task, outcome, false);
    };
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      if (slot.task !== null) {
        this.#end(slot.task, { ok: false, error: this.#o.errors.crashed(event.message) }, true);
      } else {
        worker.terminate();
        if (this.#idle === slot) this.#idle = null;
      }
    };
    worker.onmessageerror = () => {
      if (slot.task === null) return;
      const e = this.#o.errors;
      const error = e.unreadable ? e.unreadable() : e.crashed("unreadable answer");
      this.#end(slot.task, { ok: false, error }, true);
    };
    return slot;
  }

  #abort(task: Task): void {
    const signal = task.job.signal!;
    const e = this.#o.errors;
    const outcome = { ok: false as const, error: e.aborted ? e.aborted(signal) : signal.reason };
    if (task.slot !== null) {
      this.#end(task, outcome, true);
      return;
    }
    this.#queue = this.#queue.filter((t) => t !== task);
    this.#settle(task, outcome);
  }

  /** Ends a running job; `restart` ends its worker too (it may still be busy). */
  #end(task: Task, outcome: JobOutcome<unknown>, restart: boolean): void {
    const slot = task.slot;
    if (task.done || slot === null) return;
    slot.task = null;
    this.#busy.delete(slot);
    if (restart || this.#idle !== null || this.#closed) slot.worker.terminate();
    else this.#idle = slot;
    this.#settle(task, outcome);
    this.#pump();
  }

  #settle(task: Task, outcome: JobOutcome<unknown>): void {
    if (task.done) return;
    task.done = true;
    task.timer?.abort();
    task.job.signal?.removeEventListener("abort", task.onAbort);
    if (outcome.ok) task.resolve(outcome.value);
    else task.reject(outcome.error);
  }
}
