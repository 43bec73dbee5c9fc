/**
 * Resident Task Cards: the agent's `logs/events.jsonl` projected into a
 * public frame per conversation, the programmable slot under it, one card
 * per route kept in step on Feishu within a write budget.
 * @module
 */

export type { TaskCardStatus } from "./contract.ts";
export { createTaskCards } from "./manager.ts";
export { DEFAULT_GAP_MS as TASK_CARD_GAP_MS } from "./pace.ts";
