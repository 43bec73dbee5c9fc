/**
 * The shared core every part of the emulator works on: the world, the clock,
 * ids, the change feed, mutable settings, the request log and the closing
 * signal. Built once per emulator by {@linkcode createCore}.
 * @module
 */

import { type EmuClock, RealEmuClock } from "./clock.ts";
import { ChangeFeed } from "./feed.ts";
import { createDefaultWorld } from "./fixtures.ts";
import { IdGen } from "./ids.ts";
import type { World } from "./world.ts";
import type { FrameType, RequestRecord } from "./types.ts";

/** The long-connection client config, in seconds, as the endpoint and pongs send it. */
export interface ClientConfig {
  PingInterval: number;
  ReconnectCount: number;
  ReconnectInterval: number;
  ReconnectNonce: number;
}

/** Fast values for tests and the sandbox (the default). */
export const TEST_CLIENT_CONFIG: ClientConfig = Object.freeze({
  PingInterval: 1,
  ReconnectCount: -1,
  ReconnectInterval: 0.2,
  ReconnectNonce: 0,
});

/** Size and count limits the emulator enforces. */
export interface Limits {
  /** UTF-8 bytes of a `text` content string (230025 above). */
  textBytes: number;
  /** UTF-8 bytes of a `post` or `interactive` content string (230025 above). */
  richBytes: number;
  /** Image upload bytes (234001 above). */
  imageBytes: number;
  /** File upload bytes (234001 above). */
  fileBytes: number;
  /** PUT edits per message (230072 beyond). */
  editCount: number;
  /** Elements per card (230099 beyond). */
  cardElements: number;
}

/** Feishu's documented limits. */
export const DEFAULT_LIMITS: Limits = Object.freeze({
  textBytes: 150 * 1024,
  richBytes: 30 * 1024,
  imageBytes: 10 * 1024 * 1024,
  fileBytes: 30 * 1024 * 1024,
  editCount: 20,
  cardElements: 200,
});

/** Timing of one-click app registration; small values let tests poll back to back. */
export interface RegistrationSettings {
  /** `interval` answered by `begin`, seconds (fractions allowed; default 0.1). */
  intervalSeconds: number;
  /** `expires_in` answered by `begin`, seconds (default 600). */
  expiresInSeconds: number;
}

/** Options for `createEmulator` / `startEmulator`. */
export interface EmulatorOptions {
  /** Port for `startEmulator` (0 = any free port, the default). */
  port?: number;
  /** The clock; default real time. Pass a `ManualEmuClock` to drive time by hand. */
  clock?: EmuClock;
  /** The initial state; default `createDefaultWorld()`. */
  world?: World;
  /** ClientConfig overrides (default {@linkcode TEST_CLIENT_CONFIG}). */
  clientConfig?: Partial<ClientConfig>;
  /** How long an event may stay un-ACKed before it is pushed again (default 3000). */
  ackTimeoutMs?: number;
  /** How many times an un-ACKed event is pushed again (default 4). */
  maxRedeliveries?: number;
  /** `expire` of issued tenant tokens, seconds (default 7200). */
  tokenExpireSeconds?: number;
  /** Send `uuid` idempotency window (default one hour). */
  uuidWindowMs?: number;
  /** Limit overrides. */
  limits?: Partial<Limits>;
  /** Code for "resource is not in this message" (default 234003). */
  resourceNotFoundCode?: number;
  /** Per-chat send/reply limit per second, or false (default false). */
  chatRateLimit?: number | false;
  /** App-wide requests per second, or false (default false). */
  appRateLimit?: number | false;
  /** Push reaction events for the bot's own reactions (default false). */
  pushOwnReactionEvents?: boolean;
  /**
   * Every reaction POST adds a new reaction, even when the app already has
   * one with that emoji on the message (default false: the existing one is
   * answered and nothing is added).
   */
  duplicateReactions?: boolean;
  /** `service_id` in the WS URL (default 33554678). */
  serviceId?: number;
  /**
   * Which group messages of one app are pushed to the other apps in the
   * chat: "mention" (default, Feishu's rule: only to the bots @-mentioned)
   * or "all" (every one, to every other bot in the chat).
   */
  botMessages?: "mention" | "all";
  /**
   * When a new session may receive events: "ping" (default, its first ping;
   * nothing is lost) or "open" (at once, as Feishu does; the node-sdk can drop
   * a frame that arrives before it attached its listener).
   */
  readyOn?: "ping" | "open";
  /**
   * The frame `type` every card click goes out in: "event" (default) or
   * "card", as Feishu sometimes sends callbacks (the node-sdk 1.74 drops
   * those without an ACK). A click's `push.frameType` overrides it.
   */
  cardFrameType?: FrameType;
  /** Timing of one-click app registration (`interval`, `expires_in`). */
  registration?: Partial<RegistrationSettings>;
  /**
   * Put between the prefix and the number of every id the emulator creates
   * (default none: `om_emu_0001`). A world kept across runs gives each run its
   * own (`om_emu_<ns>0001`), so no id of a run repeats one an earlier run gave.
   */
  idNamespace?: string;
}

/** Settings that tests may change while the emulator runs. */
export interface Settings {
  clientConfig: ClientConfig;
  ackTimeoutMs: number;
  maxRedeliveries: number;
  tokenExpireSeconds: number;
  uuidWindowMs: number;
  limits: Limits;
  resourceNotFoundCode: number;
  chatRateLimit: number | false;
  appRateLimit: number | false;
  pushOwnReactionEvents: boolean;
  duplicateReactions: boolean;
  serviceId: number;
  botMessages: "mention" | "all";
  readyOn: "ping" | "open";
  cardFrameType: FrameType;
}

/** Something the emulator could not process (a bad frame, a send that failed). */
export interface EmuErrorRecord {
  at: number;
  where: string;
  message: string;
}

/** The shared core. */
export interface Core {
  world: World;
  clock: EmuClock;
  ids: IdGen;
  feed: ChangeFeed;
  settings: Settings;
  requests: RequestRecord[];
  errors: EmuErrorRecord[];
  /** Aborted by `close()`; long waits end with it. */
  closing: AbortSignal;
  /** Aborts `closing`. */
  close(): void;
  /** Resolves after `ms` of the emulator clock, or as soon as the emulator closes. */
  wait(ms: number): Promise<void>;
  /** Resolves when the emulator closes. */
  untilClosed(): Promise<void>;
  /** Records a processing error (never swallowed). */
  recordError(where: string, error: unknown): void;
}

/**
 * Builds the core from options.
 *
 * @example
 * ```ts
 * import { createCore } from "./core.ts";
 * import { ManualEmuClock } from "./clock.ts";
 * const core = createCore({ clock: new ManualEmuClock(), ackTimeoutMs: 500 });
 * if (core.settings.ackTimeoutMs !== 500 || core.settings.clientConfig.PingInterval !== 1) throw new Error();
 * core.close();
 * ```
 */
export function createCore(options: EmulatorOptions = {}): Core {
  const clock = options.clock ?? new RealEmuClock();
  const controller = new AbortController();
  const core: Core = {
    world: options.world ?? createDefaultWorld(),
    clock,
    ids: new IdGen({ namespace: options.idNamespace }),
    feed: new ChangeFeed(),
    settings: {
      clientConfig: { ...TEST_CLIENT_CONFIG, ...options.clientConfig },
      ackTimeoutMs: options.ackTimeoutMs ?? 3000,
      maxRedeliveries: options.maxRedeliveries ?? 4,
      tokenExpireSeconds: options.tokenExpireSeconds ?? 7200,
      uuidWindowMs: options.uuidWindowMs ?? 3_600_000,
      limits: { ...DEFAULT_LIMITS, ...options.limits },
      resourceNotFoundCode: options.resourceNotFoundCode ?? 234003,
      chatRateLimit: options.chatRateLimit ?? false,
      appRateLimit: options.appRateLimit ?? false,
      pushOwnReactionEvents: options.pushOwnReactionEvents ?? false,
      duplicateReactions: options.duplicateReactions ?? false,
      serviceId: options.serviceId ?? 33554678,
      botMessages: options.botMessages ?? "mention",
      readyOn: options.readyOn ?? "ping",
      cardFrameType: options.cardFrameType ?? "event",
    },
    requests: [],
    errors: [],
    closing: controller.signal,
    close: () => controller.abort(new Error("The emulator is closed")),
    wait: (ms) =>
      new Promise<void>((resolve) => {
        if (controller.signal.aborted) return resolve();
        const done = () => {
          clock.clearTimer(timer);
          controller.signal.removeEventListener("abort", done);
          resolve();
        };
        const timer = clock.setTimer(ms, done);
        controller.signal.addEventListener("abort", done, { once: true });
      }),
    untilClosed: () =>
      new Promise<void>((resolve) => {
        if (controller.signal.aborted) return resolve();
        controller.signal.addEventListener("abort", () => resolve(), { once: true });
      }),
    recordError: (where, error) => {
      core.errors.push({
        at: clock.now(),
        where,
        message: error instanceof Error ? error.message : String(error),
      });
      core.feed.emit({ kind: "error.recorded" });
    },
  };
  return core;
}
