/**
 * The Task Card as Feishu shows it: a schema-2.0 card whose single markdown
 * element carries the frame, escaped so that it reads exactly as the plain
 * text the renderer produced (the Telegram bridge sends that same text as a
 * plain message): nothing in it can mention, link, embed or format. The
 * title names the agent (`<name> Task Card`, localized by the caller). It
 * sets `update_multi` so that every later render can edit the card in place.
 * @module
 */

import { escapeMarkdown } from "./markdown.ts";

/** The title of a Task Card whose agent has no known name (English). */
export const TASK_CARD_TITLE = "Task Card";

/**
 * Wraps a rendered frame in the Task Card.
 *
 * @example
 * ```ts
 * import { taskCardWrapper } from "./taskcard.ts";
 * const card = taskCardWrapper("📋 ACTIVITIES\n• <at id=all></at>", "scribe Task Card");
 * const body = card.body as { elements: { tag: string; content: string }[] };
 * if (body.elements[0]!.content !== "📋 ACTIVITIES\n• &lt;at id=all&gt;&lt;/at&gt;") throw new Error();
 * const header = card.header as { title: { content: string } };
 * if (header.title.content !== "scribe Task Card") throw new Error();
 * ```
 */
export function taskCardWrapper(
  frame: string,
  title: string = TASK_CARD_TITLE,
): Record<string, unknown> {
  return {
    schema: "2.0",
    config: { update_multi: true },
    header: { title: { tag: "plain_text", content: title }, template: "blue" },
    body: { elements: [{ tag: "markdown", content: escapeMarkdown(frame) }] },
  };
}
