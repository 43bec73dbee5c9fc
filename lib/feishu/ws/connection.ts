/**
 * `startLongConnection`: one node-sdk `WSClient` per account, wrapped with
 * what the SDK lacks — frames are never lost in the open gap (`_hooks.ts`),
 * events reach `onEvent` as raw envelopes and its value is the ACK, a
 * watchdog on the injected clock restarts a silent connection, an SDK that
 * gives up (fatal endpoint code, "reconnect exhausted") is restarted with
 * jittered backoff forever, and `status()` tells the truth.
 * @module
 */

import type { Clock, Logger } from "../../core/mod.ts";
import { proxyAgent } from "../_proxy_agent.ts";
import { lark } from "../_sdk.ts";
import {
  describeProxy,
  processProxyEnv,
  type ProxyEnv,
  proxyForUrl,
  validateProxyEnv,
} from "../proxy.ts";
import { type SdkSocket, type SdkWsInternals, wsInternals } from "./_internals.ts";
import { hookWsClient } from "./_hooks.ts";
import { newSdkWsClient } from "./_sdk_client.ts";
import { hostOf, queryFreeLogger, stripUrlQueries } from "./_log.ts";
import { backoffDelay, type BackoffPolicy, classifyWsError, DEFAULT_BACKOFF } from "./backoff.ts";
import { everyPingInterval, tooSilent } from "./watchdog.ts";
import type {
  LongConnection,
  LongConnectionOptions,
  LongConnectionState,
  LongConnectionStatus,
  RawEnvelope,
} from "./types.ts";

const FALLBACK_PING_MS = 120_000;

class LongConnectionImpl implements LongConnection {
  readonly alias: string;
  readonly #o: LongConnectionOptions;
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #env: ProxyEnv;
  readonly #policy: BackoffPolicy;
  readonly #random: () => number;
  readonly #silentPings: number;
  readonly #client: lark.WSClient;
  readonly #sdk: SdkWsInternals;
  readonly #dispatcher: { invoke(data: unknown): Promise<unknown> };
  readonly #stop = new AbortController();
  #watchStop: AbortController | null = null;
  readonly #startedAt: number;
  #s: LongConnectionStatus;
  #socket: SdkSocket | null = null;
  #aliveAt = 0;
  #downSince: number | null = null;
  #restartAttempt = 0;
  #restartGen = 0;

  constructor(options: LongConnectionOptions) {
    this.alias = options.alias;
    this.#o = options;
    this.#clock = options.clock;
    this.#log = queryFreeLogger(options.log);
    this.#env = options.proxyEnv ?? processProxyEnv;
    validateProxyEnv(this.#env);
    this.#policy = { ...DEFAULT_BACKOFF, ...options.watchdog?.backoff };
    this.#random = options.watchdog?.random ?? Math.random;
    this.#silentPings = options.watchdog?.silentPings ?? 3;
    this.#startedAt = this.#clock.now();
    this.#s = {
      state: "connecting",
      since: this.#startedAt,
      lastFrameAt: null,
      lastEventAt: null,
      lastPingAt: null,
      connects: 0,
      reconnects: 0,
      lastError: null,
      endpointHost: null,
      proxy: null,
      nextRetryAt: null,
    };
    this.#client = newSdkWsClient(options, {
      log: this.#log,
      env: this.#env,
      callbacks: {
        onReady: () => this.#connected(),
        onReconnected: () => this.#connected(),
        onReconnecting: () => this.#down(),
        onError: (err: Error) => this.#sdkGaveUp(err),
      },
    });
    this.#sdk = wsInternals(this.#client);
    hookWsClient(this.#client, {
      onOpen: (socket) => this.#opened(socket),
      onPing: () => void (this.#s.lastPingAt = this.#clock.now()),
      beforeConnect: (url) => this.#agentFor(url),
    });
    this.#dispatcher = {
      invoke: (data) => {
        this.#s.lastEventAt = this.#clock.now();
        return this.#o.onEvent(data as RawEnvelope);
      },
    };
    this.#start();
    this.#watch();
  }

  /**
   * (Re)starts the watchdog loop. Restarted at every connection, so its first
   * check comes one ping interval of the server's ClientConfig after the
   * connection is up, not one SDK default interval (120 s) after start.
   */
  #watch(): void {
    this.#watchStop?.abort();
    const stop = new AbortController();
    this.#watchStop = stop;
    void everyPingInterval({
      clock: this.#clock,
      signal: AbortSignal.any([this.#stop.signal, stop.signal]),
      intervalMs: () => this.#pingIntervalMs(),
      tick: (ms) => this.#checkSilence(ms),
    });
  }

  status(): LongConnectionStatus {
    return { ...this.#s };
  }

  close(): Promise<void> {
    if (this.#s.state !== "closed") {
      this.#stop.abort();
      this.#client.close({ force: true });
      this.#socket = null;
      this.#s.nextRetryAt = null;
      this.#set("closed");
    }
    return Promise.resolve();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #start(): void {
    this.#client.start({ eventDispatcher: this.#dispatcher as unknown as lark.EventDispatcher })
      .catch((err) => this.#sdkGaveUp(err instanceof Error ? err : new Error(String(err))));
  }

  #set(state: LongConnectionState): void {
    if (this.#s.state !== state) {
      this.#s.state = state;
      this.#s.since = this.#clock.now();
    }
    try {
      this.#o.onStatus?.(this.status());
    } catch (err) {
      // a faulty observer must not break the reconnect machinery: report it and go on
      this.#log.warn(`[ws:${this.alias}] onStatus failed`, { error: String(err) });
    }
  }

  /** A new socket is open: watch its frames and its close. */
  #opened(socket: SdkSocket): void {
    this.#socket = socket;
    socket.on("message", () => void (this.#s.lastFrameAt = this.#clock.now()));
    socket.on("close", () => {
      if (socket === this.#socket && this.#s.state === "connected") this.#down();
    });
  }

  #agentFor(url: string): unknown {
    this.#s.endpointHost = hostOf(url);
    let proxy: URL | null = null;
    try {
      proxy = proxyForUrl(url, this.#env);
    } catch (err) {
      // validated at start, so only an unparsable endpoint URL lands here: connect directly
      this.#log.warn(`[ws:${this.alias}] no proxy decision for the endpoint URL`, {
        error: stripUrlQueries(String(err)),
      });
    }
    this.#s.proxy = proxy ? describeProxy(proxy) : null;
    return proxy ? proxyAgent(proxy) : undefined;
  }

  #connected(): void {
    if (this.#s.state === "closed") return;
    const now = this.#clock.now();
    const reconnect = this.#s.connects > 0;
    const downtimeMs = Math.max(0, now - (this.#downSince ?? this.#startedAt));
    this.#s.connects++;
    if (reconnect) this.#s.reconnects++;
    this.#downSince = null;
    this.#restartAttempt = 0;
    this.#aliveAt = now;
    this.#s.nextRetryAt = null;
    this.#set("connected");
    this.#watch();
    this.#log.info(`[ws:${this.alias}] connected`, {
      reconnect,
      downtime_ms: downtimeMs,
      endpoint: this.#s.endpointHost,
      proxy: this.#s.proxy,
    });
    const hook = this.#o.onConnected;
    if (hook) {
      Promise.resolve().then(() => hook({ reconnect, downtimeMs })).catch((err) =>
        this.#log.warn(`[ws:${this.alias}] onConnected failed`, { error: String(err) })
      );
    }
  }

  /** The connection is lost (or never came up): remember since when. */
  #down(): void {
    if (this.#s.state === "closed") return;
    this.#downSince ??= this.#clock.now();
    const failed = this.#s.state === "failed";
    this.#set(failed ? "failed" : this.#s.connects > 0 ? "reconnecting" : "connecting");
  }

  /** The SDK stopped trying: restart it after a jittered backoff, forever. */
  #sdkGaveUp(err: Error): void {
    if (this.#s.state === "closed") return;
    const message = stripUrlQueries(err.message || String(err));
    const failure = classifyWsError(message);
    this.#restartAttempt++;
    const delay = backoffDelay(this.#restartAttempt, {
      kind: failure.kind,
      random: this.#random,
      policy: this.#policy,
    });
    if (failure.kind === "auth") {
      this.#s.lastError = `Feishu refused the app credentials (code 514): check app_id and ` +
        `app_secret of account ${this.alias}; retrying every ${Math.round(delay / 1000)} s`;
      this.#log.error(`[ws:${this.alias}] ${this.#s.lastError}`);
    } else {
      this.#s.lastError = message;
      this.#log.warn(`[ws:${this.alias}] long connection stopped; restarting`, {
        error: message,
        retry_in_ms: Math.round(delay),
      });
    }
    this.#downSince ??= this.#clock.now();
    this.#restart(delay, failure.kind === "auth" ? "failed" : undefined);
  }

  #restart(delayMs: number, state?: LongConnectionState): void {
    if (this.#s.state === "closed") return;
    const gen = ++this.#restartGen;
    this.#client.close({ force: true });
    this.#socket = null;
    const wait = delayMs > 0 ? this.#clock.sleep(delayMs, this.#stop.signal) : Promise.resolve();
    this.#s.nextRetryAt = delayMs > 0 ? this.#clock.now() + delayMs : null;
    this.#set(state ?? (this.#s.connects > 0 ? "reconnecting" : "connecting"));
    wait.then(() => {
      if (this.#s.state === "closed" || gen !== this.#restartGen) return;
      this.#s.nextRetryAt = null;
      this.#start();
    }, () => {
      // only close() aborts the wait, and close() already stopped everything
    });
  }

  /** Restarts a connection that stayed silent for `silentPings` ping intervals. */
  #checkSilence(intervalMs: number): void {
    if (this.#s.state !== "connected") return;
    const silentMs = tooSilent({
      now: this.#clock.now(),
      connectedAt: this.#aliveAt,
      lastFrameAt: this.#s.lastFrameAt,
      intervalMs,
      silentPings: this.#silentPings,
    });
    if (silentMs === null) return;
    this.#s.lastError = `no frame for ${Math.round(silentMs / 1000)} s ` +
      `(${this.#silentPings} ping intervals of ${Math.round(intervalMs / 1000)} s); reconnecting`;
    this.#log.warn(`[ws:${this.alias}] ${this.#s.lastError}`);
    this.#downSince = this.#clock.now();
    this.#restart(0);
  }

  #pingIntervalMs(): number {
    const ms = Number(this.#sdk.wsConfig.getWS("pingInterval"));
    return Number.isFinite(ms) && ms > 0 ? ms : FALLBACK_PING_MS;
  }
}

/**
 * Starts the long connection of one account. Never throws for network or
 * Feishu failures (they show in `status()`); throws only for a malformed
 * `appId` or proxy variable.
 *
 * ```ts ignore
 * await using conn = startLongConnection({
 *   alias: "main", appId, appSecret, baseUrl: "https://open.feishu.cn",
 *   log, clock: systemClock,
 *   onEvent: (envelope) => intake(envelope), // resolves after the durable write
 *   onConnected: ({ reconnect, downtimeMs }) => reconnect && backfill(downtimeMs),
 * });
 * ```
 */
export function startLongConnection(options: LongConnectionOptions): LongConnection {
  return new LongConnectionImpl(options);
}
