/**
 * The few private members of the node-sdk's `WSClient` (1.74.0, pinned in
 * deno.json) that the long-connection wrapper hooks: `pingLoop` runs inside
 * the socket's `open` handler (and then on every ping tick), `communicate`
 * attaches the SDK's own listeners after `open` has resolved, `connect` opens
 * the socket with `agent`. {@link wsInternals} checks they exist, so an SDK
 * upgrade that renames them fails loudly at start instead of silently
 * reopening the gap.
 * @module
 */

import type { lark } from "../_sdk.ts";

/** The `ws` socket as far as we use it. */
export interface SdkSocket {
  readonly readyState: number;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  off(event: string, listener: (...args: unknown[]) => void): unknown;
  emit(event: string, ...args: unknown[]): boolean;
  terminate(): void;
}

/** A pbbp2 frame as the SDK decodes it. */
export interface SdkFrame {
  headers: { key: string; value: string }[];
  [field: string]: unknown;
}

/** The private surface of `WSClient` we rely on. */
export interface SdkWsInternals {
  pingLoop(): void;
  handleEventData(frame: SdkFrame): Promise<void>;
  sendMessage(frame: SdkFrame): void;
  communicate(): void;
  connect(): Promise<boolean>;
  agent: unknown;
  wsConfig: {
    getWSInstance(): SdkSocket | null;
    getWS(key: "connectUrl"): string;
    getWS(key: "pingInterval"): number;
  };
}

/** `ws`'s OPEN ready state. */
export const SOCKET_OPEN = 1;

/**
 * The private view of a `WSClient`, after checking that the hooked members
 * are there.
 */
export function wsInternals(client: lark.WSClient): SdkWsInternals {
  const c = client as unknown as Record<string, unknown>;
  const missing = ["pingLoop", "communicate", "connect", "handleEventData", "sendMessage"].filter((
    k,
  ) => typeof c[k] !== "function");
  const cfg = c.wsConfig as Record<string, unknown> | undefined;
  if (typeof cfg?.getWSInstance !== "function" || typeof cfg?.getWS !== "function") {
    missing.push("wsConfig");
  }
  if (missing.length) {
    throw new Error(
      `Expected the node-sdk WSClient to have ${missing.join(", ")} (written for 1.74.0); ` +
        "the long-connection wrapper must be updated for this SDK version",
    );
  }
  return client as unknown as SdkWsInternals;
}
