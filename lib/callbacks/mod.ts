/**
 * Card callbacks (`card.action.trigger`): the raw envelope read into one
 * callback (`project`), the values reserved for the bridge's own cards
 * (`reserved`: control buttons, approval votes), the `card_action` record of
 * a business click (`record`), and the run-time capability that answers each
 * click at once and handles it in its chat's order (`callbacks`).
 * @module
 */

export type { CardCallback } from "./project.ts";
export { controlText, permissionValue, type PermissionVote, REQUEST_ID } from "./reserved.ts";
export { type CallbackCounters, type ControlHandler, createCardCallbacks } from "./callbacks.ts";
