/**
 * Messages between `decode.ts` (main thread) and `decode_worker.ts`, and the
 * name that tells a decode worker from any other realm.
 * @module
 */

import { workerName } from "../../core/mod.ts";
import type { DecodedWav } from "./decoded.ts";

/** The `name` the decode worker is started with (its `JobRunner` is of kind `"decode"`). */
export const DECODE_WORKER_NAME: string = workerName("decode");

/** One decoding job as the decoder asks it; `audio` is transferred, not copied. */
export interface DecodeRequest {
  audio: ArrayBuffer;
}

/** A job as the worker receives it: with the id its answer carries. */
export type DecodeJob = DecodeRequest & { id: number };

/** The worker's first message, sent once it listens; jobs are posted only after it. */
export interface WorkerReady {
  ready: true;
}

/** The answer to the request with the same `id`. */
export type DecodeResponse =
  | ({ id: number; ok: true } & DecodedWav)
  | { id: number; ok: false; error: string; decodeError: boolean };

/**
 * True inside a decode worker (a worker started by `createOpusDecoder`),
 * whatever module it was started from.
 *
 * @example On the main thread
 * ```ts
 * import { isDecodeWorker } from "./_protocol.ts";
 * if (isDecodeWorker()) throw new Error();
 * ```
 */
export function isDecodeWorker(): boolean {
  return (globalThis as { name?: unknown }).name === DECODE_WORKER_NAME;
}
