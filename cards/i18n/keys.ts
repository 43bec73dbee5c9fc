/**
 * The shape every language table fills: one string per control-card
 * interface text, one description per local command, and the Task Card's
 * own texts (`{name}`, `{n}` and `{time}` are filled in when shown).
 * @module
 */

/** The eleven local command names, in catalog order (the commands folder takes them from here). */
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
  "pair",
  "unpair",
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
  "pair_code",
  "pair_request",
  "approve",
  "deny",
  "pair_approved",
  "pair_denied",
  "pair_unknown",
  "pair_usage",
  "pair_welcome",
  "unpaired",
  "not_paired",
  "unpair_usage",
  "paired_list",
  "nobody",
  "bot_loop_title",
  "bot_loop",
  ...LAYER_KEYS,
] as const;

/** One interface text key. */
export type MessageKey = typeof MESSAGE_KEYS[number];

/** Command names that have a catalog description (the eleven local commands). */
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
  "pair",
  "unpair",
] as const;

/** One described command name. */
export type DescribedCommand = typeof DESCRIBED_COMMANDS[number];

/** The Task Card's texts: header, footer, time line, statuses and telemetry labels. */
export const TASK_KEYS = [
  "title",
  "header",
  "footer",
  "updated",
  "programmable",
  "other_steps",
  "status_success",
  "status_error",
  "status_pending",
  "agent",
  "refresh_hint",
  "state_active",
  "state_idle",
  "state_asleep",
  "state_suspended",
  "state_stuck",
  "state_offline",
  "session",
  "model",
  "cache",
  "miss",
  "calls",
  "ctx",
] as const;

/** One Task Card text key. */
export type TaskKey = typeof TASK_KEYS[number];

/** The approval card's texts (Claude Code's tool-permission prompts). */
export const APPROVAL_KEYS = [
  "request",
  "allowed",
  "denied",
  "subtitle",
  "tool",
  "a_tool",
  "input",
  "hint",
  "allow",
  "deny",
  "verdict",
] as const;

/** One approval card text key. */
export type ApprovalKey = typeof APPROVAL_KEYS[number];

/** A complete language table. */
export interface Messages {
  text: Record<MessageKey, string>;
  describe: Record<DescribedCommand, string>;
  task: Record<TaskKey, string>;
  approval: Record<ApprovalKey, string>;
}
