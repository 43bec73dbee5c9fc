/**
 * Which inbound failures are retried and which are recorded at once with a
 * placeholder (the pipeline asks).
 * @module
 */

import { BridgeError } from "../core/mod.ts";

/**
 * Whether a failure would recur on every attempt: the content itself is
 * the problem (a stack overflow on deep nesting, unparsable data, a
 * non-retryable format error). Such a message is recorded at once with a
 * placeholder instead of being retried; everything else (network, 5xx,
 * rate limits, download time-outs, storage) is retried by the journal.
 *
 * @example
 * ```ts
 * import { isDeterministicFailure } from "./failure.ts";
 * if (!isDeterministicFailure(new RangeError("Maximum call stack size exceeded"))) throw new Error();
 * if (isDeterministicFailure(new TypeError("error sending request"))) throw new Error();
 * ```
 */
export function isDeterministicFailure(err: unknown): boolean {
  if (err instanceof BridgeError) return !err.retryable && err.code === "FORMAT_ERROR";
  return err instanceof RangeError || err instanceof SyntaxError;
}

/** A failure in one line, for the placeholder and the log. */
export function describe(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}
