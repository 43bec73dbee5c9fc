/**
 * The nine local slash commands, in catalog order. Answered inside the
 * server without calling the model; a control card's buttons name them too.
 * @module
 */

/** Every local command name, in catalog order. */
export const LOCAL_COMMANDS = [
  "help",
  "status",
  "kanban",
  "system",
  "brief",
  "refresh",
  "sleep",
  "clear",
  "taskcard",
] as const;

/** One local command name. */
export type LocalCommand = typeof LOCAL_COMMANDS[number];

const NAMES: ReadonlySet<string> = new Set(LOCAL_COMMANDS);

/**
 * Whether `name` is one of the nine local commands.
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
