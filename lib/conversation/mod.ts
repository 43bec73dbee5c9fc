/**
 * The conversation log, below inbound, card callbacks, actions and Task
 * Cards: every record (an admitted message, a passive event, a card click,
 * a message the bridge sent) enters the store here, with its columns derived
 * from its kind (`columns`); what wakes the agent is notified here; and
 * whoever listens (Task Cards, the permission relay) learns of each record
 * and its route here (`log`).
 * @module
 */

export {
  type ConversationLog,
  createConversationLog,
  type Recalled,
  type Recorded,
  type RecordedListener,
} from "./log.ts";
