/**
 * The shape every control-card language table fills: one string per
 * interface text and one description per local command.
 * @module
 */

/** The nine local command names, in catalog order (the commands folder takes them from here). */
export const COMMAND_NAMES = [
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

/** The kanban's layer keys, in order (layer n at index n-1). */
export const LAYER_KEYS = [
  "identity",
  "model",
  "runtime",
  "mind",
  "tokens",
  "network",
  "addons",
] as const;

/** Keys of the interface texts of control cards. */
export const MESSAGE_KEYS = [
  ...COMMAND_NAMES,
  "available",
  "operations",
  "back",
  "all",
  "unavailable",
  "not_found",
  "no_system",
  "choose_system",
  "truncated",
  "usage",
  "update_failed",
  "taskcard_on",
  "taskcard_off",
  "rows",
  "pending",
  "refresh_sent",
  "sleep_sent",
  "clear_sent",
  "signal_failed",
  "confirm",
  "cancel",
  "confirm_clear",
  "confirm_sleep",
  "cancelled",
  "not_owner",
  "no_owner",
  "your_open_id",
  ...LAYER_KEYS,
] as const;

/** One interface text key. */
export type MessageKey = typeof MESSAGE_KEYS[number];

/** Command names that have a catalog description (the nine local commands). */
export const DESCRIBED_COMMANDS = [
  "help",
  "kanban",
  "taskcard",
  "refresh",
  "sleep",
  "clear",
  "status",
  "system",
  "brief",
] as const;

/** One described command name. */
export type DescribedCommand = typeof DESCRIBED_COMMANDS[number];

/** A complete language table. */
export interface Messages {
  text: Record<MessageKey, string>;
  describe: Record<DescribedCommand, string>;
}
