/**
 * The dependency bundle built once in `main.ts` and handed down: clock, ids,
 * logger. Tests build their own.
 * @module
 */

import { type Clock, systemClock } from "./clock.ts";
import { createLogger, type Logger } from "./log.ts";
import { Redactor } from "./redact.ts";

/** Everything with a side effect on time, randomness or logs. */
export interface Deps {
  clock: Clock;
  /** A fresh random id (UUID v4). */
  newId(): string;
  log: Logger;
  redactor: Redactor;
}

/**
 * Production dependencies.
 *
 * @example
 * ```ts
 * import { defaultDeps } from "./deps.ts";
 * const d = defaultDeps();
 * if (d.newId().length !== 36) throw new Error();
 * ```
 */
export function defaultDeps(options: { redactor?: Redactor; log?: Logger } = {}): Deps {
  const redactor = options.redactor ?? new Redactor();
  return {
    clock: systemClock,
    newId: () => crypto.randomUUID(),
    log: options.log ?? createLogger({ redactor }),
    redactor,
  };
}
