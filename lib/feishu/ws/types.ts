/**
 * The public types of the long connection.
 * @module
 */

import type { ApiCallCounter, Clock, Logger } from "../../core/mod.ts";
import type { ProxyEnv } from "../proxy.ts";
import type { BackoffPolicy } from "./backoff.ts";

/** A v2 event envelope exactly as Feishu sent it: `{schema, header, event}`; anything else is kept as-is. */
export interface RawEnvelope {
  schema?: string;
  header?: {
    event_id?: string;
    event_type?: string;
    create_time?: string;
    [key: string]: unknown;
  };
  event?: Record<string, unknown>;
  /** Set on envelopes rebuilt from message history (gap backfill). */
  backfilled?: boolean;
  [key: string]: unknown;
}

/** Where the connection stands. */
export type LongConnectionState =
  /** Never connected yet; trying. */
  | "connecting"
  /** A socket is open and the SDK listens on it. */
  | "connected"
  /** Was connected, lost it, trying again. */
  | "reconnecting"
  /** Feishu refused the app's credentials (514); still retrying, slowly. */
  | "failed"
  /** `close()` was called. */
  | "closed";

/** A snapshot for `/status` and diagnostics. Holds no secrets. */
export interface LongConnectionStatus {
  state: LongConnectionState;
  /** When the current state began (ms since the epoch, injected clock). */
  since: number;
  /** Last inbound frame of any kind (pong, event, …). */
  lastFrameAt: number | null;
  /** Last event handed to `onEvent`. */
  lastEventAt: number | null;
  /** Last ping the client sent. */
  lastPingAt: number | null;
  /** Connections established, the first included. */
  connects: number;
  /** Connections established after a loss (`connects` minus the first). */
  reconnects: number;
  /** The latest failure, secrets and URL queries removed. */
  lastError: string | null;
  /** Host (and port) of the latest WS endpoint; never its query string. */
  endpointHost: string | null;
  /** The proxy the WS socket uses (`http://host:port`, no credentials), or null. */
  proxy: string | null;
  /** When the wrapper's next restart is due, while it waits in backoff. */
  nextRetryAt: number | null;
}

/** What `onConnected` learns. */
export interface ConnectedInfo {
  /** False on the first connection of this `LongConnection`. */
  reconnect: boolean;
  /**
   * How long no connection was up: from the loss (socket closed, silence
   * detected, SDK error) to now; on the first connection, since start.
   */
  downtimeMs: number;
}

/** Liveness and restart settings. */
export interface WatchdogOptions {
  /** Force a reconnect after this many ping intervals without any inbound frame (default 3). */
  silentPings?: number;
  /** Restart backoff (default 1 s doubling to 60 s; 5 min after a 514). */
  backoff?: Partial<BackoffPolicy>;
  /** Jitter source in [0, 1) (default `Math.random`). */
  random?: () => number;
  /** Abort a WS handshake that takes longer (default 15 000 ms). */
  handshakeTimeoutMs?: number;
}

/** Options of `startLongConnection`. */
export interface LongConnectionOptions {
  alias: string;
  /** `cli_` + 16 hex digits. */
  appId: string;
  appSecret: string;
  /** Open API base URL without trailing slash (`https://open.feishu.cn`, the emulator's URL). */
  baseUrl: string;
  log: Logger;
  clock: Clock;
  /**
   * Receives every event (card callbacks included) as the raw envelope. The
   * resolved value becomes the ACK's data (e.g. `{toast, card}`); a throw
   * ACKs `{code: 500}`. Keep it fast: the ACK waits for it.
   */
  onEvent(envelope: RawEnvelope): Promise<unknown>;
  /** Runs on the first connection and on every reconnection (gap backfill hangs here). */
  onConnected?(info: ConnectedInfo): void | Promise<void>;
  /** Sees every status change (state, counters, errors). */
  onStatus?(status: LongConnectionStatus): void;
  /** The SDK's own pong watchdog in seconds after each ping (default 30; 0 turns it off). */
  pingTimeoutSec?: number;
  watchdog?: WatchdogOptions;
  /** Proxy variables; default the process environment. */
  proxyEnv?: ProxyEnv;
  /** Told of every HTTP request the connection sends (its endpoint pulls), for the quota. */
  onCall?: ApiCallCounter;
}

/** One account's long connection. */
export interface LongConnection extends AsyncDisposable {
  readonly alias: string;
  status(): LongConnectionStatus;
  /** Stops the SDK client, its socket and every timer. */
  close(): Promise<void>;
}
