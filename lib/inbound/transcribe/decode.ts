/**
 * The main-thread side of Opus decoding: one module worker (the core's
 * `JobRunner`), started on first use and reused, fed one job at a time (each
 * with a request id) once it has said it is ready. A job that outlives its
 * time budget, or whose caller aborts, ends the worker — the only way to stop
 * WASM mid-run — and the next job starts a fresh one.
 * @module
 */

import { type Clock, JobRunner } from "../../core/mod.ts";
import type { DecodeRequest, DecodeResponse } from "./_protocol.ts";
import { AudioDecodeError, type DecodedWav } from "./decoded.ts";

/** Default time budget of one decoding job. */
export const DEFAULT_DECODE_TIMEOUT_MS = 30_000;

/** Options of {@link createOpusDecoder}. */
export interface OpusDecoderOptions {
  clock: Clock;
  /** Budget of one job from when it is handed to the worker (its start-up included); default 30 s. */
  timeoutMs?: number;
  /**
   * The worker module when running from source. Default `decode_worker.ts`
   * beside this file; tests pass a stand-in. A bundle starts itself instead
   * (see `lib/core/worker.ts`).
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
  readonly #timeoutMs: number;
  readonly #runner: JobRunner<DecodeRequest, DecodeResponse>;

  constructor(options: OpusDecoderOptions) {
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_DECODE_TIMEOUT_MS;
    this.#runner = new JobRunner({
      kind: "decode",
      source: options.workerUrl ?? new URL("./decode_worker.ts", import.meta.url),
      clock: options.clock,
      errors: {
        closed: () => new AudioDecodeError("The audio decoder closed"),
        refused: () => new AudioDecodeError("The audio decoder is closed"),
        crashed: (text) => new AudioDecodeError(`The decode worker failed: ${text}`),
        unreadable: () => new AudioDecodeError("The decode worker sent an unreadable answer"),
        cannotStart: (err) =>
          new AudioDecodeError(`Cannot start the decode worker: ${message(err)}`),
        aborted: (signal) =>
          new AudioDecodeError("Decoding was cancelled", { cause: signal.reason }),
      },
    });
  }

  decode(audio: Uint8Array, options: { signal?: AbortSignal } = {}): Promise<DecodedWav> {
    const copy = audio.slice().buffer;
    return this.#runner.run<DecodedWav>({
      request: { audio: copy },
      transfer: [copy],
      signal: options.signal,
      // The budget runs from when the job is handed to the worker, loading included.
      limit: {
        ms: this.#timeoutMs,
        from: "dispatch",
        expire: () => ({ ok: false, error: new AudioDecodeError(timeoutText(this.#timeoutMs)) }),
      },
      answer: (response) => {
        if (response.ok) {
          const { id: _id, ok: _ok, ...decoded } = response;
          return { ok: true, value: decoded };
        }
        const text = response.decodeError ? response.error : `Decoding failed: ${response.error}`;
        return { ok: false, error: new AudioDecodeError(text) };
      },
    });
  }

  close(): void {
    this.#runner.close();
  }

  [Symbol.dispose](): void {
    this.close();
  }
}

function timeoutText(ms: number): string {
  return `Expected decoding to finish within ${ms / 1000} s but it did not`;
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
