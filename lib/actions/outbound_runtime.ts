/**
 * The long-lived parts of the outbound actions, built once per service: the
 * per-conversation pacing scheduler, the duplicate-send guard, the planner
 * (materialisation off the main thread for large markdown) and the file
 * access media uploads need.
 * @module
 */

import type { Clock } from "../core/mod.ts";
import {
  denoMediaFs,
  DuplicateGuard,
  type MediaFs,
  OutboundScheduler,
  Planner,
  type ReadFile,
} from "../outbound/mod.ts";

/** What `send`, `reply`, `edit`, `delete` and `react` share across calls. */
export interface OutboundRuntime {
  scheduler: OutboundScheduler;
  guard: DuplicateGuard;
  planner: Planner;
  mediaFs: MediaFs;
  readFile: ReadFile;
  /** Stops the scheduler (waiting sends reject) and the planner's worker. */
  close(): void;
}

/** Options of {@link createOutboundRuntime}. */
export interface OutboundRuntimeOptions {
  clock: Clock;
  /** Sends per second to one conversation (Feishu: 5). */
  perChatPerSecond?: number;
  /** Sends per second for the whole app (Feishu: 50). */
  appPerSecond?: number;
  mediaFs?: MediaFs;
  readFile?: ReadFile;
  /** Markdown weight above which materialisation runs in a worker. */
  offThreadThreshold?: number;
}

/**
 * Builds the outbound runtime.
 *
 * @example
 * ```ts
 * import { systemClock } from "../core/mod.ts";
 * import { createOutboundRuntime } from "./outbound_runtime.ts";
 * const rt = createOutboundRuntime({ clock: systemClock });
 * rt.close();
 * ```
 */
export function createOutboundRuntime(options: OutboundRuntimeOptions): OutboundRuntime {
  const scheduler = new OutboundScheduler({
    clock: options.clock,
    perChatPerSecond: options.perChatPerSecond,
    appPerSecond: options.appPerSecond,
  });
  const planner = new Planner({ threshold: options.offThreadThreshold });
  return {
    scheduler,
    guard: new DuplicateGuard(),
    planner,
    mediaFs: options.mediaFs ?? denoMediaFs,
    readFile: options.readFile ?? ((path) => Deno.readFile(path)),
    close() {
      scheduler.close();
      planner.close();
    },
  };
}
