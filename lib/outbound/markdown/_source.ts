/**
 * An index over a source string: code-point positions and lines, so the
 * chunkers can measure and cut in O(1) per query on megabyte inputs.
 *
 * Offsets are JS string (UTF-16) indexes, as the markdown parser reports them;
 * budgets are code points, as Feishu counts them.
 * @module
 */

/** Code-point and line lookups over one string. */
export class SourceIndex {
  readonly text: string;
  /** Code points in the whole text. */
  readonly cpCount: number;
  /** Number of lines (a final line without `\n` counts; "" has one line). */
  readonly lineCount: number;
  #cpBefore: Int32Array;
  #offsetOfCp: Int32Array;
  #lineStart: Int32Array;
  #lineEnd: Int32Array;
  #blank: Uint8Array;
  #prevNonBlank: Int32Array;

  constructor(text: string) {
    this.text = text;
    const n = text.length;
    this.#cpBefore = new Int32Array(n + 1);
    const offsets = new Int32Array(n + 1);
    let cp = 0;
    for (let i = 0; i < n; i++) {
      this.#cpBefore[i] = cp;
      offsets[cp] = i;
      const c = text.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
        const d = text.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          this.#cpBefore[i + 1] = cp + 1;
          i++;
        }
      }
      cp++;
    }
    this.#cpBefore[n] = cp;
    offsets[cp] = n;
    this.cpCount = cp;
    this.#offsetOfCp = offsets.subarray(0, cp + 1);

    const starts: number[] = [0];
    for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
    this.lineCount = starts.length;
    this.#lineStart = Int32Array.from(starts);
    this.#lineEnd = new Int32Array(starts.length);
    this.#blank = new Uint8Array(starts.length);
    this.#prevNonBlank = new Int32Array(starts.length);
    let lastNonBlank = -1;
    for (let l = 0; l < starts.length; l++) {
      const s = starts[l]!;
      let e = l + 1 < starts.length ? starts[l + 1]! - 1 : n;
      if (e > s && text.charCodeAt(e - 1) === 13) e--;
      this.#lineEnd[l] = e;
      let blank = 1;
      for (let i = s; i < e; i++) {
        const c = text.charCodeAt(i);
        if (c !== 32 && c !== 9) {
          blank = 0;
          break;
        }
      }
      this.#blank[l] = blank;
      this.#prevNonBlank[l] = lastNonBlank;
      if (!blank) lastNonBlank = l;
    }
  }

  /** Code points in `text.slice(start, end)`; both must be code-point boundaries. */
  cpLength(start: number, end: number): number {
    return this.#cpBefore[end]! - this.#cpBefore[start]!;
  }

  /** The largest end offset such that `[start, end)` holds at most `budget` code points. */
  endForBudget(start: number, budget: number): number {
    const cp = Math.min(this.cpCount, this.#cpBefore[start]! + Math.max(0, budget));
    return this.#offsetOfCp[cp]!;
  }

  /** The offset `count` code points before `offset` (clamped at 0). */
  backCodePoints(offset: number, count: number): number {
    return this.#offsetOfCp[Math.max(0, this.#cpBefore[offset]! - count)]!;
  }

  /** Offset of the first character of line `l`. */
  lineStart(l: number): number {
    return this.#lineStart[l]!;
  }

  /** Offset just past line `l`'s last character (before `\r\n` / `\n`). */
  lineEnd(l: number): number {
    return this.#lineEnd[l]!;
  }

  /** Whether line `l` holds only spaces and tabs (markdown's blank line). */
  blank(l: number): boolean {
    return this.#blank[l] === 1;
  }

  /** The last non-blank line before `l`, or -1. */
  prevNonBlank(l: number): number {
    return this.#prevNonBlank[l]!;
  }

  /** The line that contains `offset` (an offset at a `\n` belongs to its line). */
  lineOf(offset: number): number {
    let lo = 0;
    let hi = this.lineCount - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.#lineStart[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}
