/**
 * The contract of the resident Task Cards: their options, their status and
 * the running object (see manager.ts).
 * @module
 */

import type { Account } from "../account/mod.ts";
import type { Clock, Logger } from "../core/mod.ts";
import type { ConversationLog, Recalled, Recorded } from "../conversation/mod.ts";
import type { Store } from "../store/mod.ts";
import type { AgentProfile } from "./look.ts";

/** The presentation preference (`/taskcard on|off|N`). */
export interface TaskCardPreference {
  enabled: boolean;
  normalRows: number;
}

/** Whose work a card shows: its conversation's (default) or all of the agent's. */
export type TaskCardScope = "conversation" | "agent";

/** Options of {@link createTaskCards}. */
export interface TaskCardsOptions {
  workdir: string;
  store: Store;
  /** Where sent cards are recorded. */
  conversation: ConversationLog;
  accounts: readonly Account[];
  clock: Clock;
  log: Logger;
  /** Reads the preference (called once per poll; a failure keeps the last one). */
  preference(): Promise<TaskCardPreference>;
  /** The agent's language, name and time zone (read once per poll; a failure counts as unknown). */
  profile?(): Promise<AgentProfile>;
  /** The server's redactor (card style, every configured secret registered). */
  redact?: (text: string) => string;
  /** How often the events log, slot and preference are read (default 1000 ms). */
  pollMs?: number;
  /**
   * Least time between two writes of one route's card (default 1000 ms); a
   * function is asked after every write, so the pace can change while the
   * server runs (slower near the API quota).
   */
  gapMs?: number | (() => number);
  /** Events log quiet time that ends a task when the agent publishes no state (default 10 s). */
  quietMs?: number;
  /** Default `conversation`. */
  scope?: TaskCardScope;
  /** Routes woken or messaged within this long are kept up to date (default 24 h). */
  activeMs?: number;
  /** Bindings of routes idle longer than this are dropped (default 7 days). */
  retentionMs?: number;
}

/** What status shows of the Task Cards. */
export interface TaskCardStatus {
  enabled: boolean;
  normal_rows: number;
  scope: TaskCardScope;
  /** The agent's events log (`logs/events.jsonl`): present, and rounds projected. */
  journal: { present: boolean; rounds: number };
  programmable: "active" | "none";
  routes: number;
  /** Routes woken or messaged within the active window. */
  active_routes: number;
  /** Routes whose request the agent has not finished. */
  working_routes: number;
  /** Routes whose binding does not read back: no card is sent there. */
  blocked: { route: string; reason: string }[];
  /** `unchanged`: deliveries skipped because the card already showed that frame. */
  writes: {
    edited: number;
    sent: number;
    rotated: number;
    deleted: number;
    unchanged: number;
    failed: number;
  };
  /** Bindings dropped after `retention_days` idle. */
  pruned: number;
  done_reactions: number;
  pending_tasks: number;
  last_error: { route: string; error: string; at: string } | null;
}

/** The running Task Cards. */
export interface TaskCards {
  /** Reads everything once, then polls. */
  start(): Promise<void>;
  /**
   * The conversation log's listener: a message that woke the agent creates
   * its route's card and opens a turn; any other message landing in a route
   * (the agent's, a command's answer) marks its card superseded.
   */
  onRecorded(recorded: Recorded): void;
  /** A recalled message: its text leaves its chat's cards (rewritten at their next turn). */
  onRecalled(recalled: Recalled): void;
  status(): TaskCardStatus;
  /** Resolves when no card write waits (tests, shutdown). */
  idle(): Promise<void>;
  close(): Promise<void>;
}
