/**
 * Card callbacks (`card.action.trigger`): the raw envelope read into one
 * callback (`project`), the values reserved for the bridge's own cards
 * (`reserved`: control buttons, approval votes), the `card_action` record of
 * a business click (`record`, kept without the event's tokens), how often one
 * user's clicks may wake the agent (`throttle`), and the run-time capability
 * that answers each click at once and handles it in its chat's order
 * (`callbacks`).
 * @module
 */

export { type CardCallback, withoutTokens } from "./project.ts";
export { controlText, permissionValue, type PermissionVote, REQUEST_ID } from "./reserved.ts";
export {
  type CallbackCounters,
  type ControlHandler,
  createCardCallbacks,
  TOO_MANY_CLICKS,
} from "./callbacks.ts";
