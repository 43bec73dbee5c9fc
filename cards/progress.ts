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
  /** The finished frame: a check mark instead of the hourglass, a green header. */
  done?: boolean;
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
      template: options.done ? "green" : "blue",
    },
    body: { elements: [{ tag: "markdown", content: `${options.done ? "✅" : "⏳"} ${text}` }] },
  };
}

/**
 * The finished frame of a progress card built by {@link progressCard}: its
 * title and last phase with a check mark; null for any other card (one the
 * agent shaped itself is not ours to rewrite).
 *
 * @example
 * ```ts
 * import { finishedProgressCard, progressCard } from "./progress.ts";
 * const done = finishedProgressCard(progressCard("reading files", { title: "Bot" }));
 * const body = done?.body as { elements: { content: string }[] };
 * if (body.elements[0]!.content !== "✅ reading files") throw new Error();
 * if (finishedProgressCard({ schema: "2.0", body: { elements: [] } }) !== null) throw new Error();
 * ```
 */
export function finishedProgressCard(
  card: Record<string, unknown>,
): Record<string, unknown> | null {
  const elements = (card.body as { elements?: unknown } | undefined)?.elements;
  const first = Array.isArray(elements) && elements.length === 1 ? elements[0] : undefined;
  const content = (first as { content?: unknown } | undefined)?.content;
  if (typeof content !== "string" || !content.startsWith("⏳ ")) return null;
  const title = (card.header as { title?: { content?: unknown } } | undefined)?.title?.content;
  return progressCard(content.slice("⏳ ".length), {
    title: typeof title === "string" ? title : undefined,
    done: true,
  });
}
