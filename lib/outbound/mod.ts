/**
 * The outbound pure core: everything between a validated `send` / `reply` /
 * `edit` input and the wire calls, with no I/O of its own.
 *
 * Flow: {@link normaliseOutbound} (spec §3.1) → optional
 * {@link wrapProgressCard} (§3.9) → {@link materialise} into ordered wire
 * bodies (§3.3; chunking in `./markdown/`) → {@link chunkUuids} per chunk →
 * {@link OutboundScheduler} paces each call → {@link sendSuccess} /
 * {@link partialDeliveryFailure} and {@link sentRecord} (§2.1, §3.7, §5.4).
 * Edits and deletes: {@link resolveChunkGroup} (§3.6.2) → {@link planEdit}
 * → {@link applyLifecycle} and {@link lifecycleResponse} (§3.8).
 * {@link DuplicateGuard} is the §2.1 step 5 guard.
 *
 * The I/O edge of delivery: {@link Planner} runs materialisation (and edit
 * planning) of large markdown in a Worker; {@link uploadMedia} uploads a path
 * source; {@link deliverChunks} sends one logical message's chunks, one
 * attempt each, inside one scheduler run (§3.5).
 *
 * The only filesystem facts (media paths) come through {@link MediaFs}.
 * @module
 */

export type { NormalisedContent, WireBody } from "./types.ts";
export { normaliseOutbound, type OutboundInput } from "./content.ts";
export { denoMediaFs, type MediaFs } from "./media_fs.ts";
export { wrapProgressCard } from "./progress.ts";
export { requestBytes, wireBody } from "./wire.ts";
export { materialise } from "./materialise.ts";
export { resolveChunkGroup } from "./chunk_group.ts";
export { partialDeliveryFailure, sendSuccess, sentRecord } from "./results.ts";
export {
  applyLifecycle,
  type EditResult,
  type LifecycleInput,
  lifecycleResponse,
  type MemberOutcome,
} from "./lifecycle.ts";
export { checkIdempotencyKey, chunkUuids } from "./idempotency.ts";
export { PRIORITY } from "./scheduler.ts";
export { createOutbox, type Outbox } from "./outbox.ts";
export { type Degradation, splitMarkdown, splitText } from "./markdown/mod.ts";
export { duplicateBlocked, DuplicateGuard } from "./duplicate_guard.ts";
export { Planner } from "./planner.ts";
export { checkMediaSize, uploadMedia } from "./upload.ts";
export type { DeliveryOutcome, DeliveryRoute } from "./deliver.ts";
