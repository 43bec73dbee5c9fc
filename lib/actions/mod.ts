/**
 * The actions of the `feishu` tool: tool call → (validated input) → act →
 * record. One file per action family; `dispatch` routes a validated call.
 * The outbound ones are thin adapters over the account's outbox.
 * @module
 */

export { type ActionContext } from "./context.ts";
export { dispatch } from "./dispatch.ts";
export { accountDetails } from "./accounts.ts";
export { MANUAL, manualResult } from "./manual.ts";
