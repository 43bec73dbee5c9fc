/**
 * Control cards: the schema-2.0 card a local command answers with — a
 * header (`<agent name> · <title>`, or the title alone when the agent has
 * no known name), one markdown body and callback buttons whose values name a
 * command to run on click. The serialized card always stays under the size
 * Feishu accepts: an over-long body is cut (never inside a character
 * reference) and ends with a notice.
 * @module
 */

import { cutEscaped } from "./markdown.ts";

/** Upper bound (exclusive) on the UTF-8 size of a serialized control card. */
export const CONTROL_CARD_MAX_BYTES = 30_000;

/** Longest argument a button carries (longer callback arguments are not recognised). */
export const CONTROL_ARGUMENT_MAX = 256;

/** One button of a control card. */
export interface ControlButton {
  /** Plain-text label. */
  label: string;
  /** The local command the click runs. */
  command: string;
  /** Its argument ("" for none). */
  argument: string;
}

/** What a control card shows. */
export interface ControlCardContent {
  /** Localized title; the header reads `<brand> · <title>`, or the title alone without a brand. */
  title: string;
  /** The agent's name, when known. */
  brand?: string | null;
  /** Markdown body (callers neutralise untrusted text first). */
  body: string;
  buttons: readonly ControlButton[];
  /** Localized notice appended when the body had to be cut for size. */
  truncatedNotice: string;
}

/** The value a control button carries, recognised again when clicked. */
export function controlValue(command: string, argument: string): Record<string, unknown> {
  return { lingtai_control: { version: 1, command, argument } };
}

const encoder = new TextEncoder();

function cut(s: string, max: number): string {
  const cps = Array.from(s);
  return cps.length <= max ? s : cps.slice(0, max).join("");
}

function envelope(content: ControlCardContent, body: string): Record<string, unknown> {
  const buttons = content.buttons.map((b) => {
    const value = controlValue(b.command, cut(b.argument, CONTROL_ARGUMENT_MAX));
    return {
      tag: "button",
      text: { tag: "plain_text", content: cut(b.label, 60) },
      type: "default",
      value,
      behaviors: [{ type: "callback", value }],
    };
  });
  return {
    schema: "2.0",
    config: { update_multi: true },
    header: {
      title: {
        tag: "plain_text",
        content: content.brand
          ? `${cut(content.brand, 40)} · ${cut(content.title, 60)}`
          : cut(content.title, 60),
      },
      template: "blue",
    },
    body: { elements: [{ tag: "markdown", content: body }, ...buttons] },
  };
}

function size(card: unknown): number {
  return encoder.encode(JSON.stringify(card)).length;
}

/**
 * Builds a control card. Buttons follow the single markdown element; each
 * carries its value both directly and as a callback behaviour. When the
 * serialized card would reach {@link CONTROL_CARD_MAX_BYTES}, the body is cut
 * at a code point and the italic notice is appended.
 *
 * @example
 * ```ts
 * import { controlCard } from "./control.ts";
 * const card = controlCard({
 *   title: "Controls", brand: "scribe", body: "hi", truncatedNotice: "cut",
 *   buttons: [{ label: "Status", command: "status", argument: "" }],
 * });
 * const header = card.header as { title: { content: string } };
 * if (header.title.content !== "scribe · Controls") throw new Error();
 * ```
 */
export function controlCard(content: ControlCardContent): Record<string, unknown> {
  const full = envelope(content, content.body);
  if (size(full) < CONTROL_CARD_MAX_BYTES) return full;
  const notice = `\n\n_${content.truncatedNotice}_`;
  const length = Array.from(content.body).length;
  const fits = (n: number) =>
    size(envelope(content, cutEscaped(content.body, n) + notice)) < CONTROL_CARD_MAX_BYTES;
  let lo = 0, hi = length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  const shrunk = envelope(content, cutEscaped(content.body, lo) + notice);
  if (size(shrunk) < CONTROL_CARD_MAX_BYTES) return shrunk;
  // Only the buttons can still be too large (callers keep them few): drop them.
  return envelope({ ...content, buttons: [] }, notice.trim());
}
