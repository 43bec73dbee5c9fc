/**
 * Feishu mention tags (`<at user_id="ou_…">Name</at>`, `<at id=all></at>`)
 * must reach Feishu whole: a cut inside one would send broken markup and a
 * lost mention. This pass finds them so the chunkers can steer around them.
 * @module
 */

/** A half-open `[start, end)` range of one tag in the source. */
export type TagRange = readonly [number, number];

/** Bounded on purpose: linear time, and a stray `<at` cannot swallow a document. */
const AT_TAG = /<at\b[^<>]{0,500}>[^<]{0,500}<\/at>/gi;

/** All complete `<at …>…</at>` tags, in order, non-overlapping. */
export function findAtTags(text: string): TagRange[] {
  if (!/<at\b/i.test(text)) return [];
  const out: TagRange[] = [];
  for (const m of text.matchAll(AT_TAG)) out.push([m.index, m.index + m[0].length]);
  return out;
}

/** The tag that strictly contains `pos` (a cut at `pos` would split it), if any. */
export function tagAround(tags: readonly TagRange[], pos: number): TagRange | undefined {
  let lo = 0;
  let hi = tags.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const t = tags[mid]!;
    if (pos <= t[0]) hi = mid - 1;
    else if (pos >= t[1]) lo = mid + 1;
    else return t;
  }
  return undefined;
}
