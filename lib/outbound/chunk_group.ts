/**
 * Chunk groups: any compound id of a logical message stands for
 * all its physical chunks, so `delete` and `edit` act on the whole group.
 * @module
 */

import { type CompoundId, formatCompoundId, parseCompoundId } from "../core/mod.ts";

/** The record fields group resolution reads; records come from disk, so all are unknown. */
export interface GroupRecord {
  id?: unknown;
  message_ids?: unknown;
  chunks?: unknown;
  feishu_message_ids?: unknown;
}

/** The group to act on and the id the response reports. */
export interface ChunkGroup {
  /** The record's id (its first chunk) when a record exists, else the requested id. */
  messageId: string;
  /** Ordered compound ids of every member. */
  group: string[];
}

/** Parses an id if it has the three parts; the explicit "not a compound id" fallback. */
function parseOrUndefined(id: unknown): CompoundId | undefined {
  if (typeof id !== "string") return undefined;
  const first = id.indexOf(":");
  if (first < 0 || id.indexOf(":", first + 1) < 0) return undefined;
  return parseCompoundId(id);
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/**
 * Resolves the chunk group of `requestedId`, given its record if one was
 * found. Throws `INVALID_ARGUMENT` when `requestedId` is not a compound id.
 *
 * @example Chunk 2's id resolves to the whole group, reported by chunk 1's id
 * ```ts
 * import { resolveChunkGroup } from "./chunk_group.ts";
 * const record = { id: "main:oc_1:om_1", message_ids: ["main:oc_1:om_1", "main:oc_1:om_2"] };
 * const g = resolveChunkGroup("main:oc_1:om_2", record);
 * if (g.messageId !== "main:oc_1:om_1" || g.group.length !== 2) throw new Error();
 * ```
 */
export function resolveChunkGroup(requestedId: string, record?: GroupRecord | null): ChunkGroup {
  const requested = parseCompoundId(requestedId);
  const recordId = typeof record?.id === "string" && record.id !== "" ? record.id : undefined;
  if (record === undefined || record === null) {
    return { messageId: requestedId, group: [requestedId] };
  }
  let candidates = strings(record.message_ids);
  if (Array.isArray(record.chunks)) {
    for (const chunk of record.chunks) {
      const id = typeof chunk === "object" && chunk !== null
        ? (chunk as { message_id?: unknown }).message_id
        : undefined;
      if (typeof id === "string") candidates.push(id);
    }
  }
  if (candidates.length === 0) {
    candidates = strings(record.feishu_message_ids).map((x) =>
      formatCompoundId(requested.alias, requested.chatId, x)
    );
  }
  if (candidates.length === 0 && recordId !== undefined) candidates = [recordId];
  const group: string[] = [];
  for (const id of candidates) {
    const p = parseOrUndefined(id);
    if (p === undefined || p.messageId === "") continue;
    if (p.alias !== requested.alias || p.chatId !== requested.chatId) continue;
    if (!group.includes(id)) group.push(id);
  }
  return {
    messageId: recordId ?? requestedId,
    group: group.includes(requestedId) ? group : [requestedId],
  };
}
