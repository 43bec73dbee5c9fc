/**
 * Local slash commands: the eleven names, parsing a message text into a
 * command, and the command core that runs one and answers its localized
 * control card (plus the durable claim of control-card clicks).
 * @module
 */

export { isLocalCommand, type LocalCommand } from "./names.ts";
export { parseCommand, type ParsedCommand } from "./parse.ts";
export type {
  AccessAnswer,
  BridgeHealth,
  LocalCommands,
  LocalCommandsOptions,
  PersonView,
} from "./types.ts";
export { createLocalCommands } from "./core.ts";
export { seedDemoAgent } from "./seed.ts";
