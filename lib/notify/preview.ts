/**
 * The conversation preview of a notification: the markdown body
 * the agent reads first, and the structured window (`recent_messages`,
 * `latest_incoming`) that rides in the metadata. Each record is one line of
 * the body: its sender and text are flattened to one line and tag-safe, so
 * no text can start a line of its own.
 * @module
 */

import { codePointLength, formatCompoundId } from "../core/mod.ts";
import type { ReplyParent } from "../store/mod.ts";
import { guidanceHeader } from "./_header.ts";
import { fitItem, fitItems } from "./fit.ts";
import {
  displaySender,
  displayText,
  type ItemContext,
  type PreviewEntry,
  type PreviewItem,
  previewItem,
  recordDate,
} from "./items.ts";
import { relativeTime } from "./relative_time.ts";
import { safeLine } from "./safe_text.ts";

/** Records shown in a preview. */
export const PREVIEW_WINDOW = 10;
/** Largest body, in code points. */
export const MAX_BODY_CHARS = 10_000;
/** The channel name put into the guidance header. */
export const CHANNEL_NAME = "Feishu";

/** Inputs of {@link buildPreview}. */
export interface PreviewOptions extends ItemContext {
  /** Compound id of the record being notified, if any. */
  currentId?: string | null;
}

/** A built preview. */
export interface ConversationPreview {
  /** The markdown body (LICC `body`). */
  body: string;
  /** The structured window, oldest first. */
  recent_messages: PreviewItem[];
  /** The current incoming item (or the last incoming one); absent without one. */
  latest_incoming?: PreviewItem;
}

/**
 * Builds the preview of a chat from its records (inbound and sent, in the
 * store's order: Feishu's create time in ms, then arrival): Task Card records
 * are skipped, the rest sorted by date (stable, so records within one second
 * keep the store's order) and the last {@link PREVIEW_WINDOW} kept.
 *
 * @example
 * ```ts
 * import { buildPreview } from "./preview.ts";
 * import assert from "node:assert/strict";
 * const p = buildPreview(
 *   [{ direction: "incoming", record: { id: "main:oc_1:om_1", text: "hi", date: "2026-08-03T09:15:02Z", from_name: "Ann" } }],
 *   { alias: "main", chatId: "oc_1", currentId: "main:oc_1:om_1", nowMs: Date.parse("2026-08-03T09:15:30Z") },
 * );
 * assert.ok(p.body.endsWith("[just now] #main:oc_1:om_1 Ann: hi"));
 * assert.equal(p.latest_incoming?.is_current, true);
 * ```
 */
export function buildPreview(
  entries: readonly PreviewEntry[],
  options: PreviewOptions,
): ConversationPreview {
  const window = selectWindow(entries);
  const currentId = options.currentId ?? null;
  const items = window.map((e) =>
    previewItem(e, { ...options, isCurrent: e.record.id === currentId })
  );
  const preview: ConversationPreview = {
    body: previewBody(window, options),
    recent_messages: fitItems(items),
  };
  const latest = latestIncoming(items, currentId);
  if (latest) preview.latest_incoming = fitItem(latest);
  return preview;
}

/** Task Card records out, stable sort by date, last ten. */
function selectWindow(entries: readonly PreviewEntry[]): PreviewEntry[] {
  const keyed = entries
    .filter((e) => e.record.task_card !== true)
    .map((e, i) => ({ e, i, t: Date.parse(recordDate(e.record)) }));
  keyed.sort((a, b) => {
    const ta = Number.isNaN(a.t) ? -Infinity : a.t;
    const tb = Number.isNaN(b.t) ? -Infinity : b.t;
    return ta === tb ? a.i - b.i : ta - tb;
  });
  return keyed.slice(-PREVIEW_WINDOW).map((k) => k.e);
}

/** The current incoming item, else the last incoming one. */
function latestIncoming(items: PreviewItem[], currentId: string | null): PreviewItem | undefined {
  const incoming = items.filter((i) => i.direction === "incoming");
  return (currentId ? incoming.find((i) => i.id === currentId) : undefined) ?? incoming.at(-1);
}

/** Header, title and one line per record (plus a parent line), within budget. */
function previewBody(window: PreviewEntry[], options: PreviewOptions): string {
  const head = `${
    guidanceHeader(CHANNEL_NAME)
  }\n\n**Conversation — last ${window.length} messages (chat ${safeLine(options.chatId)})**`;
  const byId = new Map<string, PreviewEntry>();
  for (const e of window) {
    byId.set(e.record.id, e);
    for (const id of e.record.message_ids ?? []) byId.set(id, e);
  }
  const lines: string[] = [];
  for (const e of window) {
    const r = e.record;
    const when = relativeTime(recordDate(r), options.nowMs);
    lines.push(
      `[${when}] #${r.id} ${displaySender(e, options.contactName)}: ${oneLine(displayText(r))}`,
    );
    const parentRef = r.parent_id
      ? r.reply_to || formatCompoundId(options.alias, options.chatId, r.parent_id)
      : null;
    const parent = parentRef ? byId.get(parentRef) : undefined;
    if (parent) {
      const parentWhen = relativeTime(recordDate(parent.record), options.nowMs);
      const quoted = firstChars(oneLine(displayText(parent.record)), 50);
      lines.push(`  ↳ [${parentWhen}] #${parent.record.id}: ${quoted}`);
    } else if (parentRef && r.reply_to_message) {
      lines.push(`  ↳ ${outsideParentLine(parentRef, r.reply_to_message, options.nowMs)}`);
    }
  }
  return fitBody(head, lines);
}

/** The quote line of a parent outside the window, from the reply's own preview. */
function outsideParentLine(id: string, p: ReplyParent, nowMs: number): string {
  if (p.source === "unreadable") return `#${id}: [the replied-to message could not be read]`;
  const when = p.date ? `[${relativeTime(p.date, nowMs)}] ` : "";
  const who = p.from_name || (p.sender_type === "app" ? "bot" : p.from_id);
  return `${when}#${id}${who ? ` ${oneLine(who)}` : ""}: ${firstChars(oneLine(p.text ?? ""), 50)}`;
}

/** The first `n` code points, with `…` appended when cut. */
function firstChars(text: string, n: number): string {
  const cps = Array.from(text);
  return cps.length > n ? `${cps.slice(0, n).join("")}…` : text;
}

function oneLine(text: string): string {
  return safeLine(text);
}

/**
 * Keeps header and title; drops the oldest lines until the body fits,
 * marking the cut with `…`; hard-cuts when even that cannot fit.
 */
function fitBody(head: string, lines: string[]): string {
  const full = [head, ...lines].join("\n");
  if (codePointLength(full) <= MAX_BODY_CHARS) return full;
  const budget = MAX_BODY_CHARS - codePointLength(`${head}\n…\n`);
  let used = 0;
  let keep = lines.length;
  while (keep > 0) {
    const next = codePointLength(lines[keep - 1] as string) + (used > 0 ? 1 : 0);
    if (used + next > budget) break;
    used += next;
    keep--;
  }
  if (keep < lines.length) return `${head}\n…\n${lines.slice(keep).join("\n")}`;
  const tail = `${head}\n…\n${lines.at(-1) ?? ""}`;
  return `${Array.from(tail).slice(0, MAX_BODY_CHARS - 3).join("")}…`;
}
