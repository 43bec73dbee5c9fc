/**
 * The Task Card as Feishu shows it: a schema-2.0 card whose single markdown
 * element carries the frame text unchanged. The frame is the same string the
 * Telegram bridge sends, so only this wrapper is Feishu's own; it sets
 * `update_multi` so that every later render can edit the card in place.
 * @module
 */

/** The header title of the Task Card. */
export const TASK_CARD_TITLE = "LingTai Task Card";

/**
 * Wraps a rendered frame in the Task Card. The frame is not escaped: the
 * card must carry the very text the renderer produced.
 *
 * @example
 * ```ts
 * import { TASK_CARD_TITLE, taskCardWrapper } from "./taskcard.ts";
 * const card = taskCardWrapper("📋 ACTIVITIES");
 * const body = card.body as { elements: { tag: string; content: string }[] };
 * if (body.elements[0]!.content !== "📋 ACTIVITIES") throw new Error();
 * const header = card.header as { title: { content: string } };
 * if (header.title.content !== TASK_CARD_TITLE) throw new Error();
 * ```
 */
export function taskCardWrapper(frame: string): Record<string, unknown> {
  return {
    schema: "2.0",
    config: { update_multi: true },
    header: { title: { tag: "plain_text", content: TASK_CARD_TITLE }, template: "blue" },
    body: { elements: [{ tag: "markdown", content: frame }] },
  };
}
