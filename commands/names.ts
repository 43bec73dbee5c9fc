/**
 * The eleven local slash commands, in catalog order. Answered inside the
 * server without calling the model; a control card's buttons name them too.
 * @module
 */

import { COMMAND_NAMES } from "../cards/mod.ts";

/** Every local command name, in catalog order (shared with the cards' language tables). */
export const LOCAL_COMMANDS = COMMAND_NAMES;

/** One local command name. */
export type LocalCommand = typeof LOCAL_COMMANDS[number];

const NAMES: ReadonlySet<string> = new Set(LOCAL_COMMANDS);

/**
 * Whether `name` is one of the eleven local commands.
 *
 * @example
 * ```ts
 * import { isLocalCommand } from "./names.ts";
 * if (!isLocalCommand("kanban") || isLocalCommand("future-command")) throw new Error();
 * ```
 */
export function isLocalCommand(name: unknown): name is LocalCommand {
  return typeof name === "string" && NAMES.has(name);
}
