/**
 * Wrapping text, markdown or a post into the native progress card, when a
 * `send` asks for a placeholder and when a progress card is edited. A
 * progress card stays a progress card.
 * @module
 */

import { progressCard, type ProgressCardOptions } from "../../cards/mod.ts";
import { BridgeError } from "../core/mod.ts";
import { cardPreview } from "./preview.ts";
import type { NormalisedContent } from "./types.ts";

/** Where the wrapping happens; it picks the error text. */
export interface WrapProgressOptions extends ProgressCardOptions {
  /** `send` with `placeholder: true`, or `edit` of a progress card. */
  mode: "send" | "edit";
}

/**
 * The phase a progress card shows: the raw markdown for markdown, otherwise
 * the preview text (the text itself, or the post preview).
 */
export function progressPhase(content: NormalisedContent): string {
  const markdown = content.recordContent.markdown;
  return content.type === "markdown" && typeof markdown === "string"
    ? markdown
    : content.previewText;
}

/**
 * Replaces text, markdown or post content by the progress card that shows it.
 * Anything else is `INVALID_ARGUMENT` with the message for the mode.
 *
 * @example
 * ```ts
 * import { wrapProgressCard } from "./progress.ts";
 * const text = { type: "text", recordContent: { type: "text", text: "step 1" }, previewText: "step 1", messageType: "text" } as const;
 * const card = wrapProgressCard(text, { mode: "send" });
 * if (card.type !== "card" || card.previewText !== "LingTai\n⏳ step 1") throw new Error();
 * ```
 */
export function wrapProgressCard(
  content: NormalisedContent,
  options: WrapProgressOptions,
): NormalisedContent {
  if (content.type !== "text" && content.type !== "markdown" && content.type !== "post") {
    throw new BridgeError(
      "INVALID_ARGUMENT",
      options.mode === "send"
        ? "placeholder only supports text, markdown, or post"
        : "progress card edits only support text, markdown, or post",
    );
  }
  const card = progressCard(progressPhase(content), options);
  return {
    type: "card",
    recordContent: { type: "card", card },
    previewText: cardPreview(card),
    messageType: "interactive",
  };
}
