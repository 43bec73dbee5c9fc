/**
 * The duplicate-send guard: an agent looping on the same message is stopped,
 * a person's deliberate repeat is not. Within a short window (10 s unless
 * told otherwise) the first two identical sends to a receiver pass and a
 * third is refused with `DUPLICATE_BLOCKED`; once the two earlier sends are
 * older than the window the same content goes out again. (The original
 * refused it for as long as the server ran.) "Identical" = same account,
 * `receive_id` and final record content (canonical JSON, sorted keys). Only
 * sends that delivered at least one chunk count. In memory (a restart
 * forgets it), but bounded: the least recently used keys are forgotten past
 * `maxKeys`.
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

/** How long two identical sends keep a third one out, unless told otherwise. */
export const DUPLICATE_WINDOW_MS = 10_000;

/**
 * Remembers when identical sends went out.
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
  /** The times of the last two sends of each key, oldest first. */
  readonly #times = new Map<string, number[]>();
  /** The key of a send, computed once per identity object (large contents serialise once). */
  readonly #keys = new WeakMap<SendIdentity, string>();
  readonly #max: number;
  readonly #windowMs: number;
  readonly #now: () => number;

  constructor(options: { maxKeys?: number; windowMs?: number; now?: () => number } = {}) {
    this.#max = options.maxKeys ?? 10_000;
    this.#windowMs = options.windowMs ?? DUPLICATE_WINDOW_MS;
    this.#now = options.now ?? Date.now;
  }

  /** Whether this send would be the third identical one within the window. */
  blocked(send: SendIdentity): boolean {
    const times = this.#times.get(this.#key(send)) ?? [];
    const since = this.#now() - this.#windowMs;
    return times.length >= 2 && times[0]! > since;
  }

  /** Counts a send that delivered at least one chunk. */
  record(send: SendIdentity): void {
    const k = this.#key(send);
    const times = [...(this.#times.get(k) ?? []), this.#now()].slice(-2);
    this.#times.delete(k);
    this.#times.set(k, times);
    if (this.#times.size > this.#max) this.#times.delete(this.#times.keys().next().value!);
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
