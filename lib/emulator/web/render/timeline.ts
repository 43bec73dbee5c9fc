/**
 * The shape of a chat's timeline: which messages stand alone and which sit
 * inside a thread under their root. Topic groups put every message in a
 * topic; elsewhere a thread exists once someone replied in one. Plain
 * replies (no thread) stay in the main flow and quote their parent.
 * @module
 */

import type { PageMessage } from "./types.ts";

/** A message in the main flow, with its thread replies (oldest first). */
export interface TimelineEntry {
  message: PageMessage;
  replies: PageMessage[];
  /** Show as a thread (topic card or "N replies" block). */
  threaded: boolean;
}

/**
 * Groups a chat's messages (oldest first) into timeline entries.
 *
 * @example
 * ```ts
 * import { layoutTimeline } from "./timeline.ts";
 * const m = (id: string, extra = {}) => ({
 *   message_id: id, chat_id: "oc", thread_id: null, root_id: null, parent_id: null,
 *   msg_type: "text", content: { text: id }, sender: { type: "user", id: "ou", name: "A" },
 *   create_time: 0, update_time: 0, deleted: false, updated: false, edit_count: 0,
 *   reactions: [], mentions: [], ...extra,
 * });
 * const entries = layoutTimeline([
 *   m("a", { thread_id: "t" }),
 *   m("b", { thread_id: "t", root_id: "a", parent_id: "a" }),
 *   m("c", { root_id: "a", parent_id: "a" }),
 * ], "group");
 * if (entries.map((e) => `${e.message.message_id}:${e.replies.length}`).join() !== "a:1,c:0") {
 *   throw new Error();
 * }
 * ```
 */
export function layoutTimeline(items: readonly PageMessage[], mode: string): TimelineEntry[] {
  const entries: TimelineEntry[] = [];
  const byRoot = new Map<string, TimelineEntry>();
  for (const message of items) {
    const root = message.root_id ? byRoot.get(message.root_id) : undefined;
    if (
      root && message.thread_id !== null && message.thread_id === root.message.thread_id
    ) {
      root.replies.push(message);
      continue;
    }
    const entry: TimelineEntry = {
      message,
      replies: [],
      threaded: mode === "topic" || message.thread_id !== null && message.root_id === null,
    };
    entries.push(entry);
    byRoot.set(message.message_id, entry);
  }
  return entries;
}
