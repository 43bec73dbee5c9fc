/**
 * The outbound pure core: everything between a validated `send` / `reply` /
 * `edit` input and the wire calls, with no I/O of its own.
 *
 * Flow: normalise the content → optionally wrap it in a progress card →
 * materialise it into ordered wire bodies (chunking in `./markdown/`) → one
 * uuid per chunk → the account's outbox paces and sends each call → the
 * send result (or the partial-delivery failure) and the sent record. Edits
 * and deletes: resolve the chunk group → plan the edit → the lifecycle the
 * record gets and the response. The duplicate guard refuses a third
 * identical send within a short window.
 *
 * The I/O edge of delivery: the planner runs materialisation (and edit
 * planning) of large markdown in a Worker; uploads send a path source's
 * bytes; the outbox sends one logical message's chunks, holding the chat's
 * lane (a chunk Feishu did not answer is tried again under its uuid).
 *
 * Every send is written down (its intent) before its first chunk; start-up
 * finishes or records the ones a crash cut off (`recover.ts`).
 *
 * The only filesystem facts (media paths) come through {@link MediaFs}.
 * @module
 */

export { normaliseOutbound } from "./content.ts";
export { requestBytes, wireBody } from "./wire.ts";
export { materialise } from "./materialise.ts";
export { resolveChunkGroup } from "./chunk_group.ts";
export {
  applyLifecycle,
  type EditResult,
  type LifecycleInput,
  lifecycleResponse,
  type MemberOutcome,
} from "./lifecycle.ts";
export { chunkUuids } from "./idempotency.ts";
export { PRIORITY } from "./scheduler.ts";
export { createOutbox, type Outbox } from "./outbox.ts";
export { type Degradation, splitMarkdown, splitText } from "./markdown/mod.ts";
export type { DeliveryRoute } from "./deliver.ts";
export { sendCard } from "./send_card.ts";
export { type SendContext, sendMessage } from "./send.ts";
export { recoverSends } from "./recover.ts";
export { createOutboundRuntime, type OutboundRuntime } from "./runtime.ts";
export { checkOutboundTextCap } from "./caps.ts";
