/**
 * Resident Task Cards: the agent's `logs/events.jsonl` projected into a
 * public frame, the programmable slot under it, one card per route kept in
 * step on Feishu.
 * @module
 */

export { createTaskCards, type TaskCards, type TaskCardStatus } from "./manager.ts";
