/**
 * Builds the node-sdk `WSClient` of one account with our settings: our
 * logger (URL queries stripped), our HTTP instance for the endpoint pull
 * (timeout, proxy), a handshake timeout, the SDK's pong watchdog, and the
 * lifecycle callbacks routed to the wrapper.
 * @module
 */

import { APP_ID_PATTERN, type Logger } from "../../core/mod.ts";
import { feishuHttp } from "../_http.ts";
import { lark } from "../_sdk.ts";
import type { ProxyEnv } from "../proxy.ts";
import { sdkLogger } from "../sdk_logger.ts";
import type { LongConnectionOptions } from "./types.ts";

const APP_ID = APP_ID_PATTERN;

/** The SDK lifecycle callbacks the wrapper listens to. */
export interface SdkCallbacks {
  onReady(): void;
  onReconnecting(): void;
  onReconnected(): void;
  onError(err: Error): void;
}

/** A new, unstarted `WSClient`; throws for an app id the SDK would silently ignore. */
export function newSdkWsClient(
  options: LongConnectionOptions,
  deps: { log: Logger; env: ProxyEnv; callbacks: SdkCallbacks },
): lark.WSClient {
  if (!APP_ID.test(options.appId)) {
    throw new Error(`Expected app_id to look like cli_ + 16 hex digits but found ${options.appId}`);
  }
  const pingTimeout = options.pingTimeoutSec ?? 30;
  return new lark.WSClient({
    appId: options.appId,
    appSecret: options.appSecret,
    domain: options.baseUrl,
    logger: sdkLogger(deps.log, `[ws:${options.alias}]`),
    // The SDK logs every frame at debug/info (which we keep only at debug):
    // below that, do not even build those lines.
    loggerLevel: deps.log.enabled?.("debug") === false
      ? lark.LoggerLevel.warn
      : lark.LoggerLevel.debug,
    httpInstance: feishuHttp({ timeoutMs: 15_000, env: deps.env, onCall: options.onCall }),
    autoReconnect: true,
    handshakeTimeoutMs: options.watchdog?.handshakeTimeoutMs ?? 15_000,
    ...(pingTimeout > 0 ? { wsConfig: { pingTimeout } } : {}),
    ...deps.callbacks,
  });
}
