/**
 * The voice transcription step of inbound processing: decode the Opus file
 * to a 16 kHz mono WAV (off the main thread), run the operator's command on
 * it, read the transcript. Every failure comes back as data, never thrown,
 * so a voice message is always recorded with its audio file.
 * @module
 */

import { basename, extname, resolve } from "node:path";
import type { Clock, Logger } from "../../core/mod.ts";
import { createOpusDecoder, type OpusDecoder } from "./decode.ts";
import type { DecodedWav } from "./decoded.ts";
import { boundError, parseTranscriberOutput } from "./output.ts";
import { commandError, expandArgv, runCommand, usesWav } from "./run.ts";
import type { VoiceTranscript } from "../../store/mod.ts";

/** The exact error recorded when no transcriber is configured; the audio file stays attached. */
export const NO_TRANSCRIBER_ERROR = "no transcriber configured";

/** Budget of one transcriber run when the config names none. */
export const DEFAULT_TRANSCRIBER_TIMEOUT_SECONDS = 120;

/** The `transcriber` config key: an argv template and an optional time budget. */
export interface TranscriberConfig {
  /** Program and arguments; arguments may contain `{wav}` and `{input}`. */
  command: readonly string[];
  timeout_seconds?: number;
}

/** What {@link createTranscriber} needs from the outside. */
export interface TranscriberDeps {
  clock: Clock;
  log: Logger;
  /** Budget of one decoding job in the worker; default 30 s. */
  decodeTimeoutMs?: number;
  /** Decoder worker module (tests point it at a stand-in). */
  decoderWorkerUrl?: URL;
}

/** One voice message to transcribe. */
export interface TranscribeRequest {
  /** The downloaded audio file (Ogg Opus for Feishu voice). */
  audioPath: string;
  /** A folder for this message's scratch files; the WAV is written and removed here. */
  workDir: string;
  /** Aborting kills the running command or decoding job. */
  signal?: AbortSignal;
}

/** The outcome of one transcription, ready for the record. */
export type TranscriptionResult =
  | { status: "completed"; transcript: VoiceTranscript }
  | { status: "failed"; error: string };

/** Transcribes voice messages; `close()` stops work in flight and frees the worker. */
export interface Transcriber {
  /** False when no transcriber is configured. */
  readonly configured: boolean;
  transcribe(request: TranscribeRequest): Promise<TranscriptionResult>;
  /** Kills running commands, ends the decode worker, waits for work in flight to settle. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Builds the transcriber from the `transcriber` config key. Without one,
 * every call answers {@link NO_TRANSCRIBER_ERROR} without touching the
 * audio. Throws when the config itself is malformed (a startup bug).
 *
 * @example No transcriber configured
 * ```ts
 * import { createTranscriber } from "./transcriber.ts";
 * import { createLogger, systemClock } from "../../core/mod.ts";
 * await using t = createTranscriber(undefined, { clock: systemClock, log: createLogger() });
 * const r = await t.transcribe({ audioPath: "/nowhere/a.ogg", workDir: "/nowhere" });
 * if (r.status !== "failed" || r.error !== "no transcriber configured") throw new Error();
 * ```
 */
export function createTranscriber(
  config: TranscriberConfig | undefined,
  deps: TranscriberDeps,
): Transcriber {
  if (config === undefined) return unconfigured;
  return new CommandTranscriber(checkConfig(config), deps);
}

const unconfigured: Transcriber = {
  configured: false,
  transcribe: () => Promise.resolve({ status: "failed", error: NO_TRANSCRIBER_ERROR }),
  close: () => Promise.resolve(),
  [Symbol.asyncDispose]: () => Promise.resolve(),
};

function checkConfig(config: TranscriberConfig): Required<TranscriberConfig> {
  const { command } = config;
  if (!Array.isArray(command) || command.length === 0 || command[0] === "") {
    throw new RangeError(
      `Expected transcriber.command to be a non-empty list but found ${JSON.stringify(command)}`,
    );
  }
  if (command.some((a) => typeof a !== "string")) {
    throw new RangeError("Expected every transcriber.command entry to be a string");
  }
  const timeout = config.timeout_seconds ?? DEFAULT_TRANSCRIBER_TIMEOUT_SECONDS;
  if (typeof timeout !== "number" || !Number.isFinite(timeout) || timeout <= 0) {
    throw new RangeError(
      `Expected transcriber.timeout_seconds to be a positive number but found ${timeout}`,
    );
  }
  return { command: [...command], timeout_seconds: timeout };
}

class CommandTranscriber implements Transcriber {
  readonly configured = true;
  readonly #config: Required<TranscriberConfig>;
  readonly #deps: TranscriberDeps;
  readonly #stop = new AbortController();
  readonly #inFlight = new Set<Promise<TranscriptionResult>>();
  #decoder: OpusDecoder | null = null;

  constructor(config: Required<TranscriberConfig>, deps: TranscriberDeps) {
    this.#config = config;
    this.#deps = deps;
  }

  transcribe(request: TranscribeRequest): Promise<TranscriptionResult> {
    if (this.#stop.signal.aborted) {
      return Promise.resolve({ status: "failed", error: "The transcriber is closed" });
    }
    const work = this.#run(request).catch((err: unknown): TranscriptionResult => {
      this.#deps.log.error("transcription failed unexpectedly", { error: String(err) });
      return { status: "failed", error: boundError(String(err)) };
    });
    this.#inFlight.add(work);
    work.finally(() => this.#inFlight.delete(work));
    return work;
  }

  async close(): Promise<void> {
    this.#stop.abort();
    this.#decoder?.close();
    await Promise.all(this.#inFlight);
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  async #run(request: TranscribeRequest): Promise<TranscriptionResult> {
    const signal = request.signal
      ? AbortSignal.any([this.#stop.signal, request.signal])
      : this.#stop.signal;
    const input = resolve(request.audioPath);
    let decoded: DecodedWav | null = null;
    let wavPath: string | undefined;
    if (usesWav(this.#config.command)) {
      const prepared = await this.#prepareWav(input, resolve(request.workDir), signal);
      if ("error" in prepared) return this.#failed(input, prepared.error);
      ({ decoded, wavPath } = prepared);
    }
    try {
      return await this.#runCommand(
        { input, wavPath, decoded, cwd: resolve(request.workDir) },
        signal,
      );
    } finally {
      if (wavPath !== undefined) await this.#removeWav(wavPath);
    }
  }

  async #prepareWav(
    input: string,
    workDir: string,
    signal: AbortSignal,
  ): Promise<{ decoded: DecodedWav; wavPath: string } | { error: string }> {
    let audio: Uint8Array;
    try {
      audio = await Deno.readFile(input);
    } catch (err) {
      return { error: `Cannot read the audio file: ${(err as Error).message}` };
    }
    this.#decoder ??= createOpusDecoder({
      clock: this.#deps.clock,
      timeoutMs: this.#deps.decodeTimeoutMs,
      workerUrl: this.#deps.decoderWorkerUrl,
    });
    let decoded: DecodedWav;
    try {
      decoded = await this.#decoder.decode(audio, { signal });
    } catch (err) {
      return { error: (err as Error).message };
    }
    const wavPath = resolve(workDir, `${basename(input, extname(input))}.16k.wav`);
    try {
      await Deno.mkdir(workDir, { recursive: true });
      await Deno.writeFile(wavPath, decoded.wav);
    } catch (err) {
      return { error: `Cannot write the WAV file: ${(err as Error).message}` };
    }
    return { decoded, wavPath };
  }

  async #runCommand(
    job: { input: string; wavPath?: string; decoded: DecodedWav | null; cwd: string },
    signal: AbortSignal,
  ): Promise<TranscriptionResult> {
    const argv = expandArgv(this.#config.command, { wav: job.wavPath, input: job.input });
    const timeoutMs = this.#config.timeout_seconds * 1000;
    const started = this.#deps.clock.now();
    const outcome = await runCommand(argv, {
      clock: this.#deps.clock,
      timeoutMs,
      signal,
      cwd: job.cwd,
    });
    const problem = commandError(outcome, { program: argv[0]!, timeoutMs });
    if (problem !== null || outcome.kind !== "exited") {
      return this.#failed(job.input, problem ?? "Transcriber did not run");
    }
    const parsed = parseTranscriberOutput(outcome.stdout);
    if (!parsed.ok) return this.#failed(job.input, parsed.error);
    const transcript = {
      ...parsed.transcript,
      duration: parsed.transcript.duration ?? job.decoded?.durationSeconds ?? null,
    };
    this.#deps.log.info("voice transcribed", {
      audio: job.input,
      seconds: transcript.duration,
      took_ms: this.#deps.clock.now() - started,
    });
    return { status: "completed", transcript };
  }

  #failed(input: string, error: string): TranscriptionResult {
    const bounded = boundError(error);
    this.#deps.log.warn("voice transcription failed", { audio: input, error: bounded });
    return { status: "failed", error: bounded };
  }

  async #removeWav(path: string): Promise<void> {
    try {
      await Deno.remove(path);
    } catch (err) {
      // The scratch WAV only costs disk space; the transcript is what matters.
      this.#deps.log.warn("cannot remove the scratch WAV", { path, error: String(err) });
    }
  }
}
