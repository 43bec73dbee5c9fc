/**
 * Pure pieces of the reconnect policy: what an SDK `onError` means, and how
 * long to wait before the wrapper restarts the client (the core's
 * exponential delay, with a floor after an auth failure).
 * @module
 */

import { exponentialDelay } from "../../core/mod.ts";

/** What kind of failure the SDK gave up on. */
export type WsFailureKind =
  /** Endpoint code 514: wrong app id or secret. Retried slowly, shown as `failed`. */
  | "auth"
  /** Another endpoint code the SDK treats as fatal (403, 1, 1000040350, …). */
  | "refused"
  /** The SDK used up the server's `ReconnectCount`. */
  | "exhausted"
  /** Anything else. */
  | "other";

/** A classified `onError`. */
export interface WsFailure {
  kind: WsFailureKind;
  /** The endpoint code, when the message carries one. */
  code: number | null;
}

/**
 * Classifies the message of an error the SDK passed to `onError`.
 *
 * @example
 * ```ts
 * import { classifyWsError } from "./backoff.ts";
 * const a = classifyWsError("pullConnectConfig failed: code=514, msg=auth failed");
 * if (a.kind !== "auth" || a.code !== 514) throw new Error();
 * if (classifyWsError("WebSocket reconnect exhausted after 1 attempts").kind !== "exhausted") throw new Error();
 * if (classifyWsError("pullConnectConfig failed: code=403, msg=forbidden").kind !== "refused") throw new Error();
 * ```
 */
export function classifyWsError(message: string): WsFailure {
  const code = message.match(/code=(-?\d+)/)?.[1];
  if (code !== undefined) {
    const n = Number(code);
    return { kind: n === 514 ? "auth" : "refused", code: n };
  }
  if (/exhausted/i.test(message)) return { kind: "exhausted", code: null };
  return { kind: "other", code: null };
}

/** Backoff settings (milliseconds). */
export interface BackoffPolicy {
  /** First delay. */
  baseMs: number;
  /** Cap of the exponential delay. */
  maxMs: number;
  /** Delay after an auth failure (514), which a retry rarely fixes soon. */
  authMs: number;
}

/** The defaults: 1 s doubling up to 60 s; 5 minutes after an auth failure. */
export const DEFAULT_BACKOFF: BackoffPolicy = Object.freeze({
  baseMs: 1_000,
  maxMs: 60_000,
  authMs: 300_000,
});

/**
 * The wait before restart number `attempt` (1-based): exponential up to the
 * cap, then jittered into [½, 1] of that so clients spread out and the wait
 * never collapses to zero. `random` returns a number in [0, 1).
 *
 * @example
 * ```ts
 * import { backoffDelay, DEFAULT_BACKOFF } from "./backoff.ts";
 * const top = () => 0.999999;
 * if (Math.round(backoffDelay(1, { kind: "refused", random: top })) !== 1000) throw new Error();
 * if (Math.round(backoffDelay(3, { kind: "exhausted", random: top })) !== 4000) throw new Error();
 * if (Math.round(backoffDelay(30, { kind: "other", random: top })) !== 60000) throw new Error();
 * if (backoffDelay(1, { kind: "refused", random: () => 0 }) !== 500) throw new Error();
 * if (backoffDelay(1, { kind: "auth", random: () => 0 }) !== DEFAULT_BACKOFF.authMs / 2) throw new Error();
 * ```
 */
export function backoffDelay(
  attempt: number,
  options: { kind: WsFailureKind; random: () => number; policy?: BackoffPolicy },
): number {
  const p = options.policy ?? DEFAULT_BACKOFF;
  return exponentialDelay(Math.max(1, attempt), {
    baseMs: p.baseMs,
    maxMs: p.maxMs,
    minMs: options.kind === "auth" ? p.authMs : 0,
    random: options.random,
  });
}
