/**
 * The frame every control card of a command shares: its title from the
 * language table, the agent's name in the header, a redacted body and
 * labelled buttons.
 * @module
 */

import { type ControlButton, controlCard, type MessageKey, type Messages } from "../cards/mod.ts";
import { redactText } from "../lib/core/mod.ts";
import type { LocalCommand } from "./names.ts";

type Card = Record<string, unknown>;

/** A language table plus who the cards speak for and how secrets are removed. */
export interface CardView extends Messages {
  /** The agent's name for the header (`<brand> · <title>`); none: the title alone. */
  brand?: string | null;
  /** The server's redactor (card style); default: no registered secrets. */
  redact?: (text: string) => string;
}

/** A button running `command` with `argument`, labelled with the command's title unless given. */
export function button(
  m: Messages,
  command: LocalCommand,
  argument = "",
  label?: string,
): ControlButton {
  return { label: label ?? m.text[command], command, argument };
}

/** A control card titled with a command (or another interface text), its body redacted. */
export function card(
  m: CardView,
  title: MessageKey,
  body: string,
  buttons: ControlButton[],
): Card {
  const redact = m.redact ?? redactText;
  return controlCard({
    title: m.text[title],
    brand: m.brand ?? null,
    body: redact(body),
    buttons: buttons.map((b) => ({ ...b, label: redact(b.label) })),
    truncatedNotice: m.text.truncated,
  });
}
