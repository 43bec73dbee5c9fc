/**
 * Edit/delete lifecycle: what the record becomes and what the action answers
 * after every group member was attempted once. An edit that shrank a message
 * (fewer chunks than before) deletes its trailing members; they leave the
 * record on full success.
 * @module
 */

import { type Failure, isoSeconds, parseCompoundId } from "../core/mod.ts";
import { asFailure, chunkRefs, type FailureLike } from "./results.ts";
import type { JsonObject, NormalisedContent } from "./types.ts";

/** How one member's operation ended. */
export interface MemberOutcome {
  messageId: string;
  /** 1-based position in the group. */
  chunkIndex: number;
  /** Edit only: the member was deleted because the new content has fewer chunks. */
  removed?: boolean;
  /** Present when the operation failed. */
  error?: FailureLike;
}

/** Every member's outcome, in group order, and when it happened. */
export interface LifecycleInput {
  operation: "edit" | "delete";
  outcomes: readonly MemberOutcome[];
  /** Clock time in milliseconds. */
  at: number;
}

/** A failed member as records and responses list it. */
export interface FailureItem {
  message_id: string;
  chunk_index: number;
  error: string;
  error_code: string;
  retryable: boolean;
  retry_after_seconds: number | null;
}

function failures(input: LifecycleInput): FailureItem[] {
  return input.outcomes.filter((o) => o.error !== undefined).map((o) => {
    const f = asFailure(o.error!);
    return {
      message_id: o.messageId,
      chunk_index: o.chunkIndex,
      error: f.error,
      error_code: f.error_code,
      retryable: f.retryable,
      retry_after_seconds: f.retry_after_seconds,
    };
  });
}

function succeeded(input: LifecycleInput): string[] {
  return input.outcomes.filter((o) => o.error === undefined).map((o) => o.messageId);
}

function removedIds(input: LifecycleInput): string[] {
  return input.outcomes.filter((o) => o.removed).map((o) => o.messageId);
}

/**
 * The `lifecycle` object stored on the record.
 *
 * @example
 * ```ts
 * import { lifecycleEntry } from "./lifecycle.ts";
 * const l = lifecycleEntry({ operation: "delete", outcomes: [{ messageId: "m:c:1", chunkIndex: 1 }], at: 0 });
 * if (l.status !== "completed" || l.at !== "1970-01-01T00:00:00Z") throw new Error();
 * ```
 */
export function lifecycleEntry(input: LifecycleInput): JsonObject {
  const failed = failures(input);
  const entry: JsonObject = {
    operation: input.operation,
    status: failed.length === 0 ? "completed" : "partial",
    attempted_message_ids: input.outcomes.map((o) => o.messageId),
    succeeded_message_ids: succeeded(input),
    failures: failed,
    at: isoSeconds(input.at),
  };
  const removed = removedIds(input);
  if (removed.length > 0) entry.removed_message_ids = removed;
  return entry;
}

/** For edits: the new content and whether the record is a progress card. */
export interface EditResult {
  content: NormalisedContent;
  placeholder: boolean;
  /** A progress card's finished frame: it stays a progress card but is no longer open (`sent`). */
  finished?: boolean;
}

/**
 * The record after the operation, or `null` when nothing may be written
 * (every member failed, so the file stays byte-identical).
 */
export function applyLifecycle<T extends object>(
  record: T,
  input: LifecycleInput & { edit?: EditResult },
): (T & JsonObject) | null {
  const ok = succeeded(input);
  if (ok.length === 0) return null;
  const lifecycle = lifecycleEntry(input);
  const at = isoSeconds(input.at);
  if (failures(input).length > 0) {
    return { ...record, status: `${input.operation}_partial`, lifecycle };
  }
  if (input.operation === "delete") {
    return { ...record, status: "deleted", deleted_at: at, deleted_message_ids: ok, lifecycle };
  }
  const edit = input.edit;
  if (edit === undefined) throw new TypeError("Expected the edit result of an edit but found none");
  const removed = new Set(removedIds(input));
  const fields: JsonObject = {
    content: structuredClone(edit.content.recordContent),
    message_type: edit.content.messageType,
    text: edit.content.previewText,
    status: edit.placeholder && !edit.finished ? "placeholder" : "sent",
    edited_at: at,
    edited_message_ids: ok.filter((id) => !removed.has(id)),
    lifecycle,
  };
  if (edit.placeholder) fields.placeholder = true;
  if (edit.finished) fields.finished_at = at;
  if (removed.size > 0) {
    const kept = input.outcomes.filter((o) => !o.removed).map((o) => o.messageId);
    const keptProvider = new Set(kept.map((id) => parseCompoundId(id).messageId));
    fields.message_ids = kept;
    fields.chunks = chunkRefs(kept);
    const providerIds = (record as JsonObject).feishu_message_ids;
    if (Array.isArray(providerIds)) {
      fields.feishu_message_ids = providerIds.filter((p) => keptProvider.has(String(p)));
    }
  }
  return { ...record, ...fields };
}

/** The warning of a lifecycle failure: the group may now disagree with itself. */
export const LIFECYCLE_WARNING = "Not every chunk of this message was changed, so its chunks " +
  "may now disagree. Inspect the chat before any new edit or delete of this message.";

/** Inputs of {@link lifecycleResponse} beyond the outcomes. */
export interface LifecycleResponseInput extends LifecycleInput {
  /** The record's id when a record exists, else the requested id. */
  messageId: string;
  /** Edit only: the response's `content_type`. */
  contentType?: string;
  /** Edit only: the message is a progress card (adds `placeholder` and a hint on success). */
  placeholder?: boolean;
}

/** The sentence that tells the agent how to treat an updated progress card. */
export const PROGRESS_EDIT_HINT = "Progress card updated. Edit it again only at the next " +
  "meaningful phase change, and send the final answer separately with send or reply.";

/**
 * The action's answer: `deleted` / `edited` when every member succeeded,
 * otherwise the failure shape of the first failure plus the lifecycle facts.
 */
export function lifecycleResponse(input: LifecycleResponseInput): JsonObject | Failure {
  const all = input.outcomes.map((o) => o.messageId);
  const failed = failures(input);
  const ok = succeeded(input);
  const edit = input.operation === "edit";
  if (failed.length === 0) {
    const removed = removedIds(input);
    const kept = all.filter((id) => !removed.includes(id));
    const out: JsonObject = {
      status: edit ? "edited" : "deleted",
      message_id: input.messageId,
      message_ids: kept,
      chunk_count: kept.length,
      chunks: chunkRefs(kept),
    };
    if (edit) out.content_type = input.contentType;
    if (removed.length > 0) out.removed_message_ids = removed;
    if (edit && input.placeholder) {
      out.placeholder = true;
      out.hint = PROGRESS_EDIT_HINT;
    }
    return out;
  }
  const first = input.outcomes.find((o) => o.error !== undefined)!;
  const out: Failure = {
    ...asFailure(first.error!),
    operation: input.operation,
    partial_failure: ok.length > 0,
    message_id: input.messageId,
    message_ids: all,
    chunk_count: all.length,
    chunks: chunkRefs(all),
    succeeded_message_ids: ok,
    failed_message_ids: failed.map((f) => f.message_id),
    failures: failed,
    automatic_retry_allowed: false,
    warning: LIFECYCLE_WARNING,
  };
  if (edit) out.content_type = input.contentType;
  return out;
}
