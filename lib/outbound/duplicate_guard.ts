/**
 * The duplicate-send guard of spec §2.1 step 5: the first two identical sends
 * to a receiver pass, the third and later are refused with
 * `DUPLICATE_BLOCKED`. "Identical" = same account, `receive_id` and final
 * record content (canonical JSON, sorted keys). Only sends that delivered at
 * least one chunk count. In memory, as in the spec, but bounded: the least
 * recently used keys are forgotten past `maxKeys`.
 * @module
 */

import { type Failure, failure } from "../core/mod.ts";

/** The refusal text (also the `warning`). */
export const DUPLICATE_MESSAGE = "Identical message already sent. Think twice before repeating.";

/**
 * JSON with object keys sorted at every level, so equal values give equal text.
 *
 * @example
 * ```ts
 * import { canonicalJson } from "./duplicate_guard.ts";
 * if (canonicalJson({ b: 1, a: [{ d: 1, c: 2 }] }) !== '{"a":[{"c":2,"d":1}],"b":1}') throw new Error();
 * ```
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v) => {
    if (typeof v !== "object" || v === null || Array.isArray(v)) return v;
    return Object.fromEntries(
      Object.keys(v).sort().map((k) => [k, (v as Record<string, unknown>)[k]]),
    );
  });
}

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
  readonly #max: number;

  constructor(options: { maxKeys?: number } = {}) {
    this.#max = options.maxKeys ?? 10_000;
  }

  /** Whether this send would be the third (or later) identical one. */
  blocked(send: SendIdentity): boolean {
    return (this.#counts.get(key(send)) ?? 0) >= 2;
  }

  /** Counts a send that delivered at least one chunk. */
  record(send: SendIdentity): void {
    const k = key(send);
    const n = (this.#counts.get(k) ?? 0) + 1;
    this.#counts.delete(k);
    this.#counts.set(k, n);
    if (this.#counts.size > this.#max) this.#counts.delete(this.#counts.keys().next().value!);
  }
}

function key(send: SendIdentity): string {
  return canonicalJson([send.account, send.receiveId, send.content]);
}
