/**
 * Recovery from a refused tenant token. The node-sdk keeps a token for its
 * whole `expire` (about two hours) and never drops it when Feishu refuses it
 * (revoked, the secret rotated), so every call failed until it expired.
 * Here a call refused for its token drops the cached token and runs once
 * more, which makes the SDK fetch a new one; a second refusal is final
 * (`PERMISSION_DENIED`, not retryable), and so is a token request the token
 * endpoint refuses. Calls refused together wait for the first one's repeat
 * and reuse the token it fetched: one burst of refusals costs one token
 * request.
 *
 * A repeat cannot double a write: Feishu did nothing for a request it
 * refused for its token, and a message create goes out again under its same
 * `uuid` anyway.
 *
 * The guard also keeps the account's auth state for `status` and `doctor`.
 * @module
 */

import { BridgeError } from "../core/mod.ts";
import { isTokenRejection, isTokenRequestFailure } from "./classify.ts";

/** The auth state of one account's client. */
export interface AuthStatus {
  /**
   * `ok` until a token is refused; `token_rejected` when a fresh token was
   * refused too, `token_request_failed` when none could be fetched; `ok`
   * again after the next call that succeeds.
   */
  state: "ok" | "token_rejected" | "token_request_failed";
  /** Tokens dropped after a refusal (each makes the SDK fetch a new one). */
  refreshes: number;
  /** When a token was last dropped (ms), or null. */
  lastRefreshAt: number | null;
  /** When the current failed state began (ms), or null while `ok`. */
  failedAt: number | null;
  /** The error that put it there (bounded, no secrets), or null. */
  lastError: string | null;
}

/** Options of {@link createTokenGuard}. */
export interface TokenGuardOptions {
  /** Drops the cached tenant token, so the SDK's next call fetches one. */
  dropToken: () => void;
  now: () => number;
  /** Told when a token is dropped, with why (logs). */
  onRefresh?: (reason: string) => void;
}

/** Runs calls with the one-refetch recovery; reports the auth state. */
export interface TokenGuard {
  run<T>(call: () => Promise<T>): Promise<T>;
  status(): AuthStatus;
}

/**
 * One line naming a failed auth state for `status` and `doctor`, or null while `ok`.
 *
 * @example
 * ```ts
 * import { authSummary } from "./token_guard.ts";
 * import assert from "node:assert/strict";
 * const s = authSummary({ state: "token_rejected", refreshes: 1, lastRefreshAt: 0, failedAt: 0, lastError: "code=99991663" });
 * assert.equal(s, "auth: token rejected at 1970-01-01T00:00:00.000Z (code=99991663)");
 * assert.equal(authSummary({ state: "ok", refreshes: 0, lastRefreshAt: null, failedAt: null, lastError: null }), null);
 * ```
 */
export function authSummary(s: AuthStatus): string | null {
  if (s.state === "ok") return null;
  const what = s.state === "token_rejected" ? "token rejected" : "token request failed";
  const at = s.failedAt === null ? "" : ` at ${new Date(s.failedAt).toISOString()}`;
  return `auth: ${what}${at}${s.lastError ? ` (${s.lastError})` : ""}`;
}

/** Builds the guard of one client. */
export function createTokenGuard(options: TokenGuardOptions): TokenGuard {
  const state: AuthStatus = {
    state: "ok",
    refreshes: 0,
    lastRefreshAt: null,
    failedAt: null,
    lastError: null,
  };
  // Bumped at each drop: a call refused with a token older than the last drop only repeats.
  let generation = 0;

  const succeeded = () => {
    if (state.state === "ok") return;
    state.state = "ok";
    state.failedAt = null;
    state.lastError = null;
  };
  const failed = (kind: AuthStatus["state"], err: Error) => {
    if (state.state !== kind) state.failedAt = options.now();
    state.state = kind;
    state.lastError = err.message.slice(0, 300);
  };
  /** Notes a final failure that is about auth; returns what to throw. */
  const settle = (err: unknown, retried: boolean): unknown => {
    if (isTokenRequestFailure(err)) {
      failed("token_request_failed", err as Error);
      return err;
    }
    if (!retried || !isTokenRejection(err)) return err;
    const e = err as BridgeError;
    failed("token_rejected", e);
    return new BridgeError("PERMISSION_DENIED", `${e.message} (a freshly fetched token too)`, {
      retryable: false,
      cause: e,
      context: e.context,
    });
  };

  // The repeat that follows the last drop; calls refused together wait for it.
  let refetch: Promise<unknown> = Promise.resolve();
  const finish = async <T>(attempt: Promise<T>): Promise<T> => {
    try {
      const out = await attempt;
      succeeded();
      return out;
    } catch (err) {
      throw settle(err, true);
    }
  };

  return {
    async run(call) {
      const started = generation;
      try {
        const out = await call();
        succeeded();
        return out;
      } catch (err) {
        if (!isTokenRejection(err)) throw settle(err, false);
        if (started === generation) {
          generation++;
          state.refreshes++;
          state.lastRefreshAt = options.now();
          options.onRefresh?.((err as Error).message);
          options.dropToken();
          const repeat = call();
          refetch = repeat.catch(() => {});
          return await finish(repeat);
        }
      }
      await refetch; // a token fetched by the call that dropped the old one
      return await finish(call());
    },
    status: () => ({ ...state }),
  };
}
