/**
 * Recognising a local command in a message text, and the command catalog.
 * @module
 */

import { isLocalCommand, type LocalCommand } from "./names.ts";

/** A recognised local command. */
export interface ParsedCommand {
  command: LocalCommand;
  /** The rest of the text after the command word, trimmed ("" for none). */
  argument: string;
  /** The whole trimmed text. */
  text: string;
}

/**
 * Parses `/name[@Bot] [argument]`: the text is trimmed and must start with
 * `/`; the first word loses any `@…` suffix and is compared in lower case.
 * Null for other texts and for unknown names (those go to the agent).
 *
 * @example
 * ```ts
 * import { parseCommand } from "./parse.ts";
 * const cmd = parseCommand(" /System@LingTaiBot  core rules ");
 * if (cmd?.command !== "system" || cmd.argument !== "core rules") throw new Error();
 * if (parseCommand("/future-command") !== null) throw new Error();
 * ```
 */
export function parseCommand(text: string): ParsedCommand | null {
  if (typeof text !== "string") return null;
  const trimmed = text.trim();
  if (!trimmed.startsWith("/")) return null;
  const match = /^(\S+)(?:\s+([\s\S]*))?$/.exec(trimmed);
  if (!match) return null;
  const at = match[1]!.indexOf("@");
  const word = (at < 0 ? match[1]! : match[1]!.slice(0, at)).slice(1).toLowerCase();
  if (!isLocalCommand(word)) return null;
  return { command: word, argument: (match[2] ?? "").trim(), text: trimmed };
}

/** The catalog `/help` lists: the default commands, then the hidden ones. */
export const CATALOG: { default: readonly LocalCommand[]; hidden: readonly LocalCommand[] } = {
  default: ["help", "kanban", "taskcard", "refresh", "sleep", "clear"],
  hidden: ["status", "system", "brief", "pair", "unpair"],
};
