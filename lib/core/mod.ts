/**
 * Core building blocks shared by every capability: the error type and failure
 * shape, the clock, the one redactor (logs and cards) and the stderr logger
 * built on it, time zones, compound ids, code-point text
 * helpers, atomic file writes, workers that also run from the bundle (and the
 * one runner of their jobs), the one exponential backoff, and the categories
 * Feishu calls are counted in.
 * Pure or edge-free; imports nothing else.
 * @module
 */

export {
  asBridgeError,
  BridgeError,
  type ErrorCode,
  type Failure,
  failure,
  toFailure,
} from "./errors.ts";
export { type Clock, ManualClock, systemClock } from "./clock.ts";
export { createLogger, guardStdout, type Logger } from "./log.ts";
export { Redactor, redactText } from "./redact.ts";
export { clockTime, dateTime, machineTimeZone, validTimeZone, zonedClock } from "./time_zone.ts";
export {
  type CompoundId,
  EVENTS_CHAT_ID,
  formatCompoundId,
  isFeishuId,
  parseCompoundId,
  requireEmail,
  requireFeishuId,
} from "./ids.ts";
export { codePointLength, isoSeconds, truncateCodePoints, utf8Length } from "./text.ts";
export { writeFileAtomic } from "./fs.ts";
export { canonicalJson } from "./json.ts";
export { boundedValue } from "./bounded.ts";
export { exponentialDelay } from "./backoff.ts";
export { storageErrorText, type StorageFault, storageFault } from "./storage.ts";
export { defaultDeps, type Deps } from "./deps.ts";
export { currentWorkerKind, serveWorker, type WorkerKind, workerName } from "./worker.ts";
export { type JobOutcome, JobRunner } from "./job_runner.ts";
export { APP_ID_PATTERN, INBOX_URI, stateDir, STATUS_URI } from "./names.ts";
export { API_CATEGORIES, type ApiCallCounter, type ApiCategory } from "./api_calls.ts";
export { yieldToIO } from "./yield.ts";
