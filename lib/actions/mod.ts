/**
 * The actions of the `feishu` tool: tool call → (validated input) → act →
 * record. One file per action family; `dispatch` routes a validated call.
 * @module
 */

export * from "./context.ts";
export * from "./dispatch.ts";
export { accountDetails, accounts } from "./accounts.ts";
export { check, read, READ_KEYS, search, SEARCH_KEYS } from "./inbox.ts";
export { MANUAL, MANUAL_URI, manualPath, manualResult, splitFrontmatter } from "./manual.ts";
export * from "./outbound_runtime.ts";
export { liveActions } from "./live.ts";
export { send } from "./send.ts";
export { reply } from "./reply.ts";
export { deleteMessage, edit } from "./lifecycle.ts";
export { react } from "./react.ts";
