/**
 * Runs the operator's transcriber command: argv placeholders filled in, no
 * shell, stdin closed, stdout kept (bounded), the tail of stderr kept, a time
 * budget enforced by killing the process (SIGKILL). Returns what happened as
 * data; `commandError` words the failures.
 * @module
 */

import type { Clock } from "../../core/mod.ts";
import { stderrTail } from "./output.ts";

/** Placeholder for the path of the 16 kHz mono WAV we write. */
export const WAV_PLACEHOLDER = "{wav}";
/** Placeholder for the path of the original audio file. */
export const INPUT_PLACEHOLDER = "{input}";

/** Default cap on kept stdout. */
export const DEFAULT_MAX_STDOUT_BYTES = 1024 * 1024;
/** Default size of the kept stderr tail. */
export const DEFAULT_MAX_STDERR_BYTES = 8 * 1024;

/**
 * True when the argv template asks for the decoded WAV (so decoding is
 * needed at all).
 *
 * @example
 * ```ts
 * import { usesWav } from "./run.ts";
 * if (!usesWav(["whisper-cli", "-f", "{wav}"]) || usesWav(["stt", "{input}"])) throw new Error();
 * ```
 */
export function usesWav(template: readonly string[]): boolean {
  return template.slice(1).some((a) => a.includes(WAV_PLACEHOLDER));
}

/**
 * Fills `{wav}` and `{input}` in every argument (also inside a longer one,
 * e.g. `--file={wav}`). The program name is taken literally.
 *
 * @example
 * ```ts
 * import { expandArgv } from "./run.ts";
 * const argv = expandArgv(["stt", "--file={wav}", "{input}"], { wav: "/w/a.wav", input: "/w/a.ogg" });
 * if (argv.join(" ") !== "stt --file=/w/a.wav /w/a.ogg") throw new Error(argv.join(" "));
 * ```
 */
export function expandArgv(
  template: readonly string[],
  paths: { wav?: string; input: string },
): string[] {
  const [program, ...args] = template;
  if (program === undefined || program === "") {
    throw new RangeError("Expected the transcriber command to name a program but found none");
  }
  return [
    program,
    ...args.map((a) => {
      if (a.includes(WAV_PLACEHOLDER) && paths.wav === undefined) {
        throw new RangeError(`Expected a WAV path for ${a} but none was given`);
      }
      return a.replaceAll(WAV_PLACEHOLDER, paths.wav ?? "").replaceAll(
        INPUT_PLACEHOLDER,
        paths.input,
      );
    }),
  ];
}

/** Options of {@link runCommand}. */
export interface RunCommandOptions {
  clock: Clock;
  timeoutMs: number;
  /** Aborting kills the process. */
  signal?: AbortSignal;
  cwd?: string;
  maxStdoutBytes?: number;
  maxStderrBytes?: number;
}

/** How a command run ended. */
export type CommandOutcome =
  | {
    kind: "exited";
    code: number;
    signal: Deno.Signal | null;
    stdout: string;
    /** stdout went past the cap; `stdout` holds only the start. */
    stdoutOverflow: boolean;
    stderr: string;
    /** Reading a pipe failed; what was read so far is kept. */
    readError: string | null;
  }
  | { kind: "timed-out"; signal: Deno.Signal | null }
  | { kind: "aborted"; signal: Deno.Signal | null }
  | { kind: "not-started"; reason: "not-found" | "not-allowed" | "failed"; message: string };

/**
 * Runs `argv` (program, then arguments) and waits for it, at most
 * `timeoutMs`. On timeout or abort the process is killed and its pipes
 * dropped, so a child that left a grandchild holding them cannot hang us.
 * The timer starts before this function first yields, so a test can advance
 * a manual clock right after calling it.
 */
export async function runCommand(
  argv: readonly string[],
  options: RunCommandOptions,
): Promise<CommandOutcome> {
  const [program, ...args] = argv;
  if (program === undefined) throw new RangeError("Expected a program to run but found none");
  if (options.signal?.aborted) return { kind: "aborted", signal: null };
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(program, {
      args,
      cwd: options.cwd,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (err) {
    return notStarted(err);
  }
  const stdoutReader = child.stdout.getReader();
  const stderrReader = child.stderr.getReader();
  let ending: "timeout" | "abort" | null = null;
  const stop = (why: "timeout" | "abort") => {
    if (ending !== null) return;
    ending = why;
    killIfRunning(child);
    stdoutReader.cancel().catch(pipeAlreadyGone);
    stderrReader.cancel().catch(pipeAlreadyGone);
  };
  const timer = new AbortController();
  options.clock.sleep(options.timeoutMs, timer.signal).then(() => stop("timeout"), finishedFirst);
  const onAbort = () => stop("abort");
  options.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const [status, out, err] = await Promise.all([
      child.status,
      drain(stdoutReader, {
        max: options.maxStdoutBytes ?? DEFAULT_MAX_STDOUT_BYTES,
        keep: "head",
      }),
      drain(stderrReader, {
        max: options.maxStderrBytes ?? DEFAULT_MAX_STDERR_BYTES,
        keep: "tail",
      }),
    ]);
    if (ending === "timeout") return { kind: "timed-out", signal: status.signal };
    if (ending === "abort") return { kind: "aborted", signal: status.signal };
    return {
      kind: "exited",
      code: status.code,
      signal: status.signal,
      stdout: decode(out.bytes),
      stdoutOverflow: out.overflow,
      stderr: decode(err.bytes),
      readError: out.error ?? err.error,
    };
  } finally {
    timer.abort();
    options.signal?.removeEventListener("abort", onAbort);
  }
}

/**
 * Words a finished run as a record error, or returns null when the command
 * succeeded (exit 0, output read whole).
 *
 * @example
 * ```ts
 * import { commandError } from "./run.ts";
 * const e = commandError({ kind: "timed-out", signal: "SIGKILL" }, { program: "stt", timeoutMs: 1500 });
 * if (e !== "Transcriber stt did not finish within 1.5 s and was killed") throw new Error(e ?? "");
 * ```
 */
export function commandError(
  outcome: CommandOutcome,
  context: { program: string; timeoutMs: number; maxStdoutBytes?: number },
): string | null {
  const { program } = context;
  switch (outcome.kind) {
    case "not-started":
      if (outcome.reason === "not-found") return `Transcriber command not found: ${program}`;
      if (outcome.reason === "not-allowed") {
        return `Not allowed to run the transcriber ${program}: grant it with --allow-run`;
      }
      return `Cannot start the transcriber ${program}: ${outcome.message}`;
    case "timed-out":
      return `Transcriber ${program} did not finish within ${
        context.timeoutMs / 1000
      } s and was killed`;
    case "aborted":
      return "Transcription was cancelled";
    case "exited": {
      if (outcome.code !== 0 || outcome.signal !== null) {
        const said = stderrTail(outcome.stderr);
        if (said !== "") return said;
        if (outcome.signal !== null) return `Transcriber ${program} was ended by ${outcome.signal}`;
        return `Transcriber ${program} exited with code ${outcome.code}`;
      }
      if (outcome.readError !== null) {
        return `Cannot read the output of the transcriber ${program}: ${outcome.readError}`;
      }
      if (outcome.stdoutOverflow) {
        const max = context.maxStdoutBytes ?? DEFAULT_MAX_STDOUT_BYTES;
        return `Expected at most ${max} bytes of transcriber output but found more`;
      }
      return null;
    }
  }
}

interface Drained {
  bytes: Uint8Array;
  overflow: boolean;
  error: string | null;
}

/** Reads a pipe to its end, keeping at most `max` bytes (its start or its end). Never rejects. */
async function drain(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  options: { max: number; keep: "head" | "tail" },
): Promise<Drained> {
  let kept = new Uint8Array(0);
  let overflow = false;
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      const joined = new Uint8Array(kept.length + value.length);
      joined.set(kept);
      joined.set(value, kept.length);
      if (joined.length > options.max) overflow = true;
      kept = options.keep === "head"
        ? joined.subarray(0, options.max)
        : joined.subarray(Math.max(0, joined.length - options.max));
    }
    return { bytes: kept, overflow, error: null };
  } catch (err) {
    return { bytes: kept, overflow, error: err instanceof Error ? err.message : String(err) };
  } finally {
    reader.releaseLock();
  }
}

function notStarted(err: unknown): CommandOutcome {
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof Deno.errors.NotFound) {
    return { kind: "not-started", reason: "not-found", message };
  }
  if (err instanceof Deno.errors.NotCapable) {
    return { kind: "not-started", reason: "not-allowed", message };
  }
  return { kind: "not-started", reason: "failed", message };
}

/** Sends SIGKILL unless the process has already exited (Deno then throws a TypeError). */
function killIfRunning(child: Deno.ChildProcess): void {
  try {
    child.kill("SIGKILL");
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
  }
}

/** Cancelling a pipe that already closed rejects; it is closed either way. */
function pipeAlreadyGone(): void {}

/** The time budget is cancelled when the command ends first. */
function finishedFirst(): void {}

function decode(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes);
}
