/**
 * The long-lived parts of the outbound actions that every account shares,
 * built once per service: the duplicate-send guard, the planner
 * (materialisation off the main thread for large markdown) and the file
 * access media uploads need. Pacing lives in each account's outbox.
 * @module
 */

import { denoMediaFs, type MediaFs } from "./media_fs.ts";
import { DuplicateGuard } from "./duplicate_guard.ts";
import { Planner } from "./planner.ts";

/** What `send`, `reply` and `edit` share across calls. */
export interface OutboundRuntime {
  guard: DuplicateGuard;
  planner: Planner;
  /** Resolves, describes and opens media files (opened once; the upload reads that handle's bytes). */
  mediaFs: MediaFs;
  /** Stops the planner's worker. */
  close(): void;
}

/** Options of {@link createOutboundRuntime}. */
export interface OutboundRuntimeOptions {
  mediaFs?: MediaFs;
  /** Markdown weight above which materialisation runs in a worker. */
  offThreadThreshold?: number;
  /** The clock of the duplicate guard's window (default `Date.now`). */
  now?: () => number;
}

/**
 * Builds the outbound runtime.
 *
 * @example
 * ```ts
 * import { createOutboundRuntime } from "./runtime.ts";
 * const rt = createOutboundRuntime();
 * rt.close();
 * ```
 */
export function createOutboundRuntime(options: OutboundRuntimeOptions = {}): OutboundRuntime {
  const planner = new Planner({ threshold: options.offThreadThreshold });
  return {
    guard: new DuplicateGuard({ now: options.now }),
    planner,
    mediaFs: options.mediaFs ?? denoMediaFs,
    close() {
      planner.close();
    },
  };
}
