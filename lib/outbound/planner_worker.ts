/**
 * Worker side of {@link Planner}: runs materialisation and edit planning of
 * large markdown away from the main event loop (stdio, long-connection ACKs).
 * @module
 */

import { type PlanJob, type PlanReply, runPlanJob, toPlanError } from "./planner.ts";

/** The worker global scope, typed narrowly (the default lib types `self` as a window). */
const scope = self as unknown as {
  postMessage(m: PlanReply): void;
  onmessage: ((ev: MessageEvent<PlanJob>) => void) | null;
};

scope.onmessage = (ev: MessageEvent<PlanJob>) => {
  const job = ev.data;
  try {
    scope.postMessage({ id: job.id, ok: true, value: runPlanJob(job) });
  } catch (err) {
    scope.postMessage({ id: job.id, ok: false, error: toPlanError(err) });
  }
};
