/**
 * Sequence numbers for FIFO entries: unique per journal and increasing in the
 * order `admit` is called, across restarts. The allocator starts above the
 * largest key found at open and above `clock.now() * 1000`, so keys never
 * repeat even when the FIFO was drained and the clock stepped back.
 * @module
 */

/** Slots per millisecond when the sequence follows the clock. */
export const SEQ_PER_MS = 1000;

/**
 * Hands out increasing sequence numbers.
 *
 * @example
 * ```ts
 * import { SeqAllocator } from "./_seq.ts";
 * const s = new SeqAllocator(5);
 * const a = s.next(0), b = s.next(0), c = s.next(1);
 * if (a !== 6 || b !== 7 || c !== 1000) throw new Error(`${a} ${b} ${c}`);
 * ```
 */
export class SeqAllocator {
  #last: number;

  /** `floor` is the largest sequence number already used (or -1). */
  constructor(floor: number) {
    this.#last = floor;
  }

  /** The next number: above every earlier one and at least `nowMs * 1000`. */
  next(nowMs: number): number {
    const next = Math.max(this.#last + 1, Math.floor(nowMs) * SEQ_PER_MS);
    if (!Number.isSafeInteger(next)) {
      throw new RangeError(`Expected a safe integer sequence number but found ${next}`);
    }
    this.#last = next;
    return next;
  }
}
