/**
 * English control-card texts (also the fallback language).
 * @module
 */

import type { Messages } from "./keys.ts";

/** The English table. */
export const EN: Messages = {
  text: {
    help: "Controls",
    status: "Status",
    kanban: "Kanban",
    system: "System",
    brief: "Brief",
    refresh: "Refresh",
    sleep: "Sleep",
    clear: "Clear",
    taskcard: "Task Card",
    available: "Available local commands",
    operations: "Agent controls",
    back: "Back",
    all: "All layers",
    unavailable: "Agent data is unavailable.",
    not_found: "No briefing was found.",
    no_system: "No system documents were found.",
    choose_system: "Choose a system document",
    truncated: "Content was truncated.",
    usage: "Usage: `/taskcard on`, `/taskcard off`, or `/taskcard N` (1–10).",
    update_failed: "The Task Card setting could not be updated.",
    taskcard_on: "Task Cards are visible.",
    taskcard_off: "Task Cards are hidden.",
    rows: "normal rows",
    pending: "A refresh is already pending.",
    refresh_sent: "Refresh requested. The Agent will restart shortly.",
    sleep_sent: "Sleep requested. Send a message to wake the Agent.",
    clear_sent: "Conversation reset requested.",
    signal_failed: "The control signal failed.",
    confirm: "Confirm",
    cancel: "Cancel",
    confirm_clear: "Clear the conversation? The Agent forgets what was said so far.",
    confirm_sleep: "Put the Agent to sleep? A new message wakes it.",
    cancelled: "Cancelled. Nothing was changed.",
    not_owner: "Only the Agent's owners can use this command.",
    no_owner:
      "Nobody can control this Agent yet: no owner is named. To name one, add this to the account in the config:",
    your_open_id: "Your open_id",
    identity: "Identity",
    model: "Model",
    runtime: "Runtime",
    mind: "Mind",
    tokens: "Tokens",
    network: "Network",
    addons: "Addons",
  },
  describe: {
    help: "List available commands",
    kanban: "Show full agent dashboard (model, tokens, network, config)",
    taskcard: "Show or hide Task Cards",
    refresh: "Restart agent",
    sleep: "Put agent to sleep",
    clear: "Clear conversation",
    status: "Show agent status (also in /kanban)",
    system: "Browse system files (tap to view)",
    brief: "Show current briefing",
  },
};
