/**
 * The native progress ("placeholder") card: a schema-2.0 card
 * that `send` creates with `placeholder: true` and `edit` replaces at each
 * phase change.
 * @module
 */

/** The header title of progress cards (records and tests expect it). */
export const PROGRESS_CARD_TITLE = "LingTai";

/** Options of {@link progressCard}. */
export interface ProgressCardOptions {
  /** Header title; defaults to {@link PROGRESS_CARD_TITLE}. */
  title?: string;
}

/**
 * Builds the progress card for a phase text: trimmed, `…` when blank, shown
 * after an hourglass.
 *
 * @example
 * ```ts
 * import { progressCard } from "./progress.ts";
 * const card = progressCard("  reading files ");
 * const body = card.body as { elements: { content: string }[] };
 * if (body.elements[0]!.content !== "⏳ reading files") throw new Error();
 * const blank = progressCard(" ").body as { elements: { content: string }[] };
 * if (blank.elements[0]!.content !== "⏳ …") throw new Error();
 * ```
 */
export function progressCard(
  phase: string,
  options: ProgressCardOptions = {},
): Record<string, unknown> {
  const text = phase.trim() === "" ? "…" : phase.trim();
  return {
    schema: "2.0",
    config: { update_multi: true },
    header: {
      title: { tag: "plain_text", content: options.title ?? PROGRESS_CARD_TITLE },
      template: "blue",
    },
    body: { elements: [{ tag: "markdown", content: `⏳ ${text}` }] },
  };
}
