/**
 * Messages an inbound message points at: the forwarded chat history a
 * `merge_forward` carries, expanded into the record, and the parent a reply
 * answers, previewed in `reply_to_message`.
 * @module
 */

export {
  expandForwardedHistory,
  fillReplyParent,
  ParentCache,
  type RelatedContext,
} from "./fetch.ts";
export { FORWARD_LIMITS } from "./forward.ts";
