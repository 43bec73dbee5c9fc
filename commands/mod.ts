/**
 * Local slash commands: the shared names (the command core arrives with the
 * local-commands capability).
 * @module
 */

export { isLocalCommand, type LocalCommand } from "./names.ts";
