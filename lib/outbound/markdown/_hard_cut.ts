/**
 * Where to cut when one line alone is longer than the budget: never inside a
 * surrogate pair, preferably not inside a grapheme (emoji ZWJ sequences, flags,
 * combining marks), never inside an `<at>` tag that can move, and for markdown
 * preferably after a space.
 * @module
 */

import { tagAround, type TagRange } from "./_at_tags.ts";
import type { SourceIndex } from "./_source.ts";

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** How far back (in code points) a grapheme boundary is looked for. */
const GRAPHEME_LOOKBACK = 64;

/** Options of {@link hardCut}. */
export interface HardCutOptions {
  /** Prefer a cut right after a space or tab in the back half of the window. */
  preferSpace: boolean;
}

/** The chosen cut and, if it had to split an `<at>` tag longer than the budget, that tag. */
export interface HardCut {
  cut: number;
  splitTag?: TagRange;
}

/**
 * Picks a cut in `(start, windowEnd]`. `windowEnd` is a code-point boundary
 * holding at most the budget, so any result keeps the piece within it.
 */
export function hardCut(
  index: SourceIndex,
  window: { start: number; end: number; tags: readonly TagRange[] },
  options: HardCutOptions,
): HardCut {
  const { start, end: windowEnd, tags } = window;
  const text = index.text;
  const half = Math.ceil(index.cpLength(start, windowEnd) / 2);
  const mid = index.endForBudget(start, half);
  let cut = windowEnd;
  let found = false;
  if (options.preferSpace) {
    for (let i = windowEnd - 1; i >= mid && i > start; i--) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9) {
        cut = i + 1;
        found = true;
        break;
      }
    }
  }
  if (!found && windowEnd < text.length) {
    const from = Math.max(start, index.backCodePoints(windowEnd, GRAPHEME_LOOKBACK));
    const to = index.endForBudget(windowEnd, GRAPHEME_LOOKBACK / 2);
    let best = -1;
    for (const seg of graphemes.segment(text.slice(from, to))) {
      const at = from + seg.index;
      if (at > windowEnd) break;
      if (at > from) best = at;
    }
    if (best > start) cut = best;
  }
  const tag = tagAround(tags, cut);
  if (tag === undefined) return { cut };
  if (tag[0] > start) return { cut: tag[0] };
  return { cut, splitTag: tag };
}
