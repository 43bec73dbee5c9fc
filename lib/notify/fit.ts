/**
 * The size bound of structured metadata: LingTai's kernel drops a
 * structured field whose compact JSON exceeds 20,000 characters, so we shrink
 * ours step by step until it fits — shorter texts and paths, fewer mentions,
 * then fewer (oldest first) window items — and never exceed it.
 * @module
 */

import { codePointLength, truncateCodePoints } from "../core/mod.ts";
import type { AttachmentProjection, PreviewItem } from "./items.ts";

/** Largest compact JSON of one structured field, in characters. */
export const MAX_STRUCTURED_CHARS = 20_000;

interface Level {
  otherText: number;
  currentText: number;
  mentions: number;
  path: number;
  error: number;
  attachments: number;
}

const LEVELS: Level[] = [
  { otherText: 500, currentText: 500, mentions: 20, path: 1024, error: 200, attachments: 8 },
  { otherText: 200, currentText: 500, mentions: 10, path: 512, error: 200, attachments: 8 },
  { otherText: 80, currentText: 500, mentions: 5, path: 256, error: 100, attachments: 8 },
  { otherText: 40, currentText: 200, mentions: 0, path: 160, error: 60, attachments: 4 },
];

/**
 * Compact JSON length in code points.
 *
 * @example
 * ```ts
 * import { jsonChars } from "./fit.ts";
 * if (jsonChars({ a: "é" }) !== 9) throw new Error();
 * ```
 */
export function jsonChars(value: unknown): number {
  return codePointLength(JSON.stringify(value));
}

/**
 * Shrinks a list of items until its compact JSON is within `max`. The
 * current item is kept longest; a lone item that still does not fit is
 * reduced to its identity and a short text.
 *
 * @example Small lists are returned unchanged
 * ```ts
 * import { fitItems } from "./fit.ts";
 * const items = [{ id: "a", direction: "incoming" as const, sender: "s", date: "", relative_time: "?", text: "hi", text_truncated: false, is_current: true }];
 * if (fitItems(items) !== items) throw new Error();
 * ```
 */
export function fitItems(
  items: PreviewItem[],
  max: number = MAX_STRUCTURED_CHARS,
): PreviewItem[] {
  if (jsonChars(items) <= max) return items;
  const last = LEVELS[LEVELS.length - 1] as Level;
  for (const level of LEVELS.slice(1)) {
    const shrunk = items.map((i) => shrinkItem(i, level));
    if (jsonChars(shrunk) <= max) return shrunk;
  }
  const shrunk = items.map((i) => shrinkItem(i, last));
  while (shrunk.length > 1 && jsonChars(shrunk) > max) {
    const oldest = shrunk.findIndex((i) => !i.is_current);
    shrunk.splice(oldest >= 0 ? oldest : 0, 1);
  }
  if (jsonChars(shrunk) <= max) return shrunk;
  return shrunk.map(minimalItem);
}

/**
 * Shrinks one item (e.g. `latest_incoming`) the same way.
 *
 * @example
 * ```ts
 * import { fitItem } from "./fit.ts";
 * const item = { id: "a", direction: "incoming" as const, sender: "s", date: "", relative_time: "?", text: "x".repeat(500), text_truncated: false, is_current: true };
 * if (JSON.stringify(fitItem(item, 300)).length > 300) throw new Error();
 * ```
 */
export function fitItem(item: PreviewItem, max: number = MAX_STRUCTURED_CHARS): PreviewItem {
  return fitItems([item], max + 2)[0] as PreviewItem;
}

function shrinkItem(item: PreviewItem, level: Level): PreviewItem {
  const out: PreviewItem = { ...item };
  const cap = item.is_current ? level.currentText : level.otherText;
  if (codePointLength(item.text) > cap) {
    out.text = truncateCodePoints(item.text, cap);
    out.text_truncated = true;
  }
  out.sender = truncateCodePoints(item.sender, 200);
  if (item.mentions) {
    if (item.mentions.length > level.mentions) out.mentions_truncated = true;
    if (level.mentions === 0) delete out.mentions;
    else out.mentions = item.mentions.slice(0, level.mentions);
  }
  if (item.attachments) {
    if (item.attachments.length > level.attachments) out.attachments_truncated = true;
    out.attachments = item.attachments.slice(0, level.attachments).map((a) =>
      shrinkAttachment(a, level)
    );
  }
  return out;
}

function shrinkAttachment(a: AttachmentProjection, level: Level): AttachmentProjection {
  const out = { ...a };
  if (a.path && codePointLength(a.path) > level.path) {
    out.path = Array.from(a.path).slice(0, level.path).join("");
    out.path_truncated = true;
  }
  if (a.error) out.error = truncateCodePoints(a.error, level.error);
  if (a.transcription_error) {
    out.transcription_error = truncateCodePoints(a.transcription_error, level.error);
  }
  if (a.filename) out.filename = truncateCodePoints(a.filename, 120);
  return out;
}

/** Identity and a short text only; always small. */
function minimalItem(item: PreviewItem): PreviewItem {
  return {
    id: truncateCodePoints(item.id, 300),
    direction: item.direction,
    sender: truncateCodePoints(item.sender, 100),
    date: truncateCodePoints(item.date, 40),
    relative_time: truncateCodePoints(item.relative_time, 40),
    text: truncateCodePoints(item.text, 100),
    text_truncated: true,
    is_current: item.is_current,
  };
}
