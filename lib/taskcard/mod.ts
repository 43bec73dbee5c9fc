/**
 * Resident Task Cards: the agent's `logs/events.jsonl` projected into a
 * public frame, the programmable slot under it, one card per route kept in
 * step on Feishu.
 * @module
 */

export { createTaskCards, type TaskCardStatus } from "./manager.ts";
export { DEFAULT_GAP_MS as TASK_CARD_GAP_MS } from "./pace.ts";
