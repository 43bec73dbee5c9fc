/**
 * The main-thread side of Opus decoding: one module worker, started on first
 * use and reused, fed one job at a time (each with a request id) once it has
 * said it is ready. A job that
 * outlives its time budget, or whose caller aborts, ends the worker — the
 * only way to stop WASM mid-run — and the next job starts a fresh one.
 * @module
 */

import { type Clock, spawnWorker } from "../../core/mod.ts";
import type { DecodeRequest, DecodeResponse, WorkerReady } from "./_protocol.ts";
import { AudioDecodeError, type DecodedWav } from "./decoded.ts";

/** Default time budget of one decoding job. */
export const DEFAULT_DECODE_TIMEOUT_MS = 30_000;

/** Options of {@link createOpusDecoder}. */
export interface OpusDecoderOptions {
  clock: Clock;
  /** Budget of one job from the moment the worker receives it; default 30 s. */
  timeoutMs?: number;
  /**
   * The worker module when running from source. Default `decode_worker.ts`
   * beside this file; tests pass a stand-in. A bundle starts itself instead
   * (`spawnWorker`, `lib/core/worker.ts`).
   */
  workerUrl?: URL;
}

/** Decodes Ogg Opus to 16 kHz mono WAV off the main thread. */
export interface OpusDecoder {
  /**
   * Decodes one file. Rejects with {@link AudioDecodeError} for undecodable
   * audio, a timeout, an abort, a crashed worker or a closed decoder.
   */
  decode(audio: Uint8Array, options?: { signal?: AbortSignal }): Promise<DecodedWav>;
  /** Ends the worker and rejects every job not yet answered. Idempotent. */
  close(): void;
  [Symbol.dispose](): void;
}

interface Job {
  id: number;
  audio: Uint8Array;
  posted: boolean;
  signal: AbortSignal | undefined;
  onAbort: () => void;
  timer: AbortController | null;
  resolve(value: DecodedWav): void;
  reject(reason: AudioDecodeError): void;
}

/**
 * Creates the decoder. Nothing starts until the first `decode`.
 *
 * @example Closing an unused decoder starts no worker
 * ```ts
 * import { createOpusDecoder } from "./decode.ts";
 * import { systemClock } from "../../core/mod.ts";
 * const decoder = createOpusDecoder({ clock: systemClock });
 * decoder.close();
 * ```
 */
export function createOpusDecoder(options: OpusDecoderOptions): OpusDecoder {
  return new WorkerDecoder(options);
}

class WorkerDecoder implements OpusDecoder {
  readonly #clock: Clock;
  readonly #timeoutMs: number;
  readonly #workerUrl: URL;
  #worker: Worker | null = null;
  #workerReady = false;
  #queue: Job[] = [];
  #current: Job | null = null;
  #nextId = 1;
  #closed = false;

  constructor(options: OpusDecoderOptions) {
    this.#clock = options.clock;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_DECODE_TIMEOUT_MS;
    this.#workerUrl = options.workerUrl ?? new URL("./decode_worker.ts", import.meta.url);
  }

  decode(audio: Uint8Array, options: { signal?: AbortSignal } = {}): Promise<DecodedWav> {
    return new Promise<DecodedWav>((resolve, reject) => {
      if (this.#closed) return reject(new AudioDecodeError("The audio decoder is closed"));
      if (options.signal?.aborted) return reject(aborted(options.signal));
      const job: Job = {
        id: this.#nextId++,
        audio,
        posted: false,
        signal: options.signal,
        onAbort: () => this.#abort(job),
        timer: null,
        resolve,
        reject,
      };
      options.signal?.addEventListener("abort", job.onAbort, { once: true });
      this.#queue.push(job);
      this.#pump();
    });
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    const pending = this.#current ? [this.#current, ...this.#queue] : [...this.#queue];
    this.#queue = [];
    this.#current = null;
    this.#stopWorker();
    for (const job of pending) this.#settle(job, new AudioDecodeError("The audio decoder closed"));
  }

  [Symbol.dispose](): void {
    this.close();
  }

  #pump(): void {
    if (this.#current !== null || this.#closed) return;
    const job = this.#queue.shift();
    if (job === undefined) return;
    this.#current = job;
    try {
      this.#ensureWorker();
    } catch (err) {
      this.#finish(job, new AudioDecodeError(`Cannot start the decode worker: ${message(err)}`));
      return;
    }
    job.timer = new AbortController();
    this.#clock.sleep(this.#timeoutMs, job.timer.signal).then(
      () => this.#finish(job, new AudioDecodeError(timeoutText(this.#timeoutMs)), true),
      jobEndedFirst,
    );
    this.#post();
  }

  /** Hands the current job to the worker once the worker listens. */
  #post(): void {
    const job = this.#current;
    if (job === null || job.posted || !this.#workerReady || this.#worker === null) return;
    job.posted = true;
    const audio = job.audio.slice().buffer;
    const request: DecodeRequest = { id: job.id, audio };
    this.#worker.postMessage(request, [audio]);
  }

  #ensureWorker(): Worker {
    if (this.#worker !== null) return this.#worker;
    const worker = spawnWorker("decode", { source: this.#workerUrl });
    worker.onmessage = (event: MessageEvent<DecodeResponse | WorkerReady>) => {
      const data = event.data;
      if ("ready" in data) {
        this.#workerReady = true;
        this.#post();
      } else this.#onResponse(data);
    };
    worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      const job = this.#current;
      if (job !== null) {
        this.#finish(job, new AudioDecodeError(`The decode worker failed: ${event.message}`), true);
      } else this.#stopWorker();
    };
    worker.onmessageerror = () => {
      const job = this.#current;
      if (job !== null) {
        this.#finish(
          job,
          new AudioDecodeError("The decode worker sent an unreadable answer"),
          true,
        );
      }
    };
    this.#worker = worker;
    return worker;
  }

  #onResponse(response: DecodeResponse): void {
    const job = this.#current;
    // An answer for a job already given up on cannot arrive: giving up ends the worker.
    if (job === null || response.id !== job.id) return;
    if (response.ok) {
      const { id: _id, ok: _ok, ...decoded } = response;
      this.#finish(job, decoded);
    } else {
      const text = response.decodeError ? response.error : `Decoding failed: ${response.error}`;
      this.#finish(job, new AudioDecodeError(text));
    }
  }

  #abort(job: Job): void {
    if (this.#current === job) {
      this.#finish(job, aborted(job.signal), true);
      return;
    }
    this.#queue = this.#queue.filter((j) => j !== job);
    this.#settle(job, aborted(job.signal));
  }

  /** Ends the current job; `restart` throws the worker away (it may still be busy). */
  #finish(job: Job, outcome: DecodedWav | AudioDecodeError, restart = false): void {
    if (this.#current !== job) return;
    this.#current = null;
    if (restart) this.#stopWorker();
    this.#settle(job, outcome);
    this.#pump();
  }

  #settle(job: Job, outcome: DecodedWav | AudioDecodeError): void {
    job.timer?.abort();
    job.signal?.removeEventListener("abort", job.onAbort);
    if (outcome instanceof AudioDecodeError) job.reject(outcome);
    else job.resolve(outcome);
  }

  #stopWorker(): void {
    this.#worker?.terminate();
    this.#worker = null;
    this.#workerReady = false;
  }
}

/** The timer of a job is cancelled when the job ends first; nothing to do then. */
function jobEndedFirst(): void {}

function timeoutText(ms: number): string {
  return `Expected decoding to finish within ${ms / 1000} s but it did not`;
}

function aborted(signal: AbortSignal | undefined): AudioDecodeError {
  return new AudioDecodeError("Decoding was cancelled", { cause: signal?.reason });
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
