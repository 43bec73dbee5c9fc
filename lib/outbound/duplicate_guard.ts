/**
 * The duplicate-send guard: the first two identical sends
 * to a receiver pass, the third and later are refused with
 * `DUPLICATE_BLOCKED`. "Identical" = same account, `receive_id` and final
 * record content (canonical JSON, sorted keys). Only sends that delivered at
 * least one chunk count. In memory (a restart forgets it), but bounded: the least
 * recently used keys are forgotten past `maxKeys`.
 * @module
 */

import { canonicalJson, type Failure, failure } from "../core/mod.ts";

/** The refusal text (also the `warning`). */
export const DUPLICATE_MESSAGE = "Identical message already sent. Think twice before repeating.";

/** Canonical JSON (the guard's key). */
export { canonicalJson };

/** The failure returned for a blocked duplicate: the failure shape plus `warning`. */
export function duplicateBlocked(): Failure {
  return { ...failure("DUPLICATE_BLOCKED", DUPLICATE_MESSAGE), warning: DUPLICATE_MESSAGE };
}

/** What identifies a send for the guard. */
export interface SendIdentity {
  account: string;
  receiveId: string;
  /** The final record content (after progress-card wrapping). */
  content: unknown;
}

/**
 * Counts identical sends.
 *
 * @example
 * ```ts
 * import { DuplicateGuard } from "./duplicate_guard.ts";
 * const guard = new DuplicateGuard();
 * const send = { account: "main", receiveId: "ou_1", content: { type: "text", text: "hi" } };
 * guard.record(send);
 * guard.record(send);
 * if (!guard.blocked(send)) throw new Error();
 * ```
 */
export class DuplicateGuard {
  readonly #counts = new Map<string, number>();
  /** The key of a send, computed once per identity object (large contents serialise once). */
  readonly #keys = new WeakMap<SendIdentity, string>();
  readonly #max: number;

  constructor(options: { maxKeys?: number } = {}) {
    this.#max = options.maxKeys ?? 10_000;
  }

  /** Whether this send would be the third (or later) identical one. */
  blocked(send: SendIdentity): boolean {
    return (this.#counts.get(this.#key(send)) ?? 0) >= 2;
  }

  /** Counts a send that delivered at least one chunk. */
  record(send: SendIdentity): void {
    const k = this.#key(send);
    const n = (this.#counts.get(k) ?? 0) + 1;
    this.#counts.delete(k);
    this.#counts.set(k, n);
    if (this.#counts.size > this.#max) this.#counts.delete(this.#counts.keys().next().value!);
  }

  #key(send: SendIdentity): string {
    let k = this.#keys.get(send);
    if (k === undefined) {
      k = canonicalJson([send.account, send.receiveId, send.content]);
      this.#keys.set(send, k);
    }
    return k;
  }
}
