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

export * from "./types.ts";
export * from "./content.ts";
export * from "./media_fs.ts";
export * from "./preview.ts";
export * from "./progress.ts";
export * from "./wire.ts";
export * from "./materialise.ts";
export * from "./chunk_group.ts";
export * from "./edit_plan.ts";
export * from "./results.ts";
export * from "./lifecycle.ts";
export * from "./idempotency.ts";
export * from "./scheduler.ts";
export * from "./outbox.ts";
export * from "./markdown/mod.ts";
export * from "./duplicate_guard.ts";
export * from "./planner.ts";
export * from "./upload.ts";
export * from "./deliver.ts";
