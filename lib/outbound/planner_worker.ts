/**
 * Worker side of {@link Planner}: runs materialisation and edit planning of
 * large markdown away from the main event loop (stdio, long-connection ACKs).
 *
 * Started by `planner.ts` through its `JobRunner` of kind `"plan"`; serves only
 * inside such a worker (see `lib/core/worker.ts`).
 * @module
 */

import { serveWorker } from "../core/mod.ts";
import { type PlanJob, type PlanReply, runPlanJob, toPlanError } from "./planner.ts";

/** The worker global scope, typed narrowly (the default lib types `self` as a window). */
interface PlanScope {
  postMessage(m: PlanReply): void;
  onmessage: ((ev: MessageEvent<PlanJob>) => void) | null;
}

/** Answers planning jobs in the current worker. */
export function servePlannerWorker(): void {
  const scope = globalThis as unknown as PlanScope;
  scope.onmessage = (ev: MessageEvent<PlanJob>) => {
    const job = ev.data;
    try {
      scope.postMessage({ id: job.id, ok: true, value: runPlanJob(job) });
    } catch (err) {
      scope.postMessage({ id: job.id, ok: false, error: toPlanError(err) });
    }
  };
  scope.postMessage({ ready: true });
}

serveWorker("plan", servePlannerWorker);
