/**
 * A message as the page shows it — avatar, sender, time, "edited", the
 * quoted parent, the body (or "This message was recalled"), the last card
 * toast, reaction chips and hover actions (Recall on the viewer's own
 * messages) — and a timeline entry (a message
 * with its thread). Buttons carry `data-act` for the page script.
 * @module
 */

import { escapeHtml } from "./_html.ts";
import { emojiGlyph, PICKER_EMOJIS } from "./emoji.ts";
import { messagePreview, renderBody } from "./message.ts";
import type { TimelineEntry } from "./timeline.ts";
import { toastParts } from "./toast.ts";
import { contextFor, type PageMessage, type PageState, type PageToast } from "./types.ts";

/** What {@linkcode renderBubble} needs besides the message. */
export interface BubbleOptions {
  state?: PageState;
  /** The open_id of the user the page acts as. */
  viewer?: string;
  /** Messages of the chat by id (for reply quotes). */
  byId: ReadonlyMap<string, PageMessage>;
  /** Formats a create_time for display (default: UTC `HH:MM`). */
  formatTime?: (ms: number) => string;
  /** Chat mode: "p2p", "group" or "topic". */
  mode?: string;
  /** A chat nobody can act in any more (dissolved): no hover actions. */
  readOnly?: boolean;
}

function utcTime(ms: number): string {
  return new Date(ms).toISOString().slice(11, 16);
}

/**
 * The toast line under a card: an icon and label naming its type (which
 * also chooses the colour), then the text.
 *
 * @example
 * ```ts
 * import { toastHtml } from "./bubble.ts";
 * const html = toastHtml({ type: "success", content: "<ok>" });
 * if (html !== '<div class="card-toast toast-success"><span class="toast-icon" title="Success">✓</span> &lt;ok&gt;</div>') throw new Error(html);
 * ```
 */
export function toastHtml(t: PageToast): string {
  const p = toastParts(t);
  return `<div class="card-toast toast-${p.type}"><span class="toast-icon" title="${p.label}">${p.icon}</span> ${
    escapeHtml(p.text)
  }</div>`;
}

function reactions(msg: PageMessage, o: BubbleOptions): string {
  const ctx = contextFor(o.state);
  const groups = new Map<string, string[]>();
  for (const r of msg.reactions) {
    const names = groups.get(r.emoji_type) ?? [];
    names.push(ctx.nameOf(r.operator_id) ?? r.operator_id);
    groups.set(r.emoji_type, names);
  }
  const chips = [...groups].map(([type, names]) => {
    const mine = msg.reactions.some((r) => r.emoji_type === type && r.operator_id === o.viewer);
    const glyph = emojiGlyph(type) ?? "";
    return `<button type="button" class="reaction${mine ? " mine" : ""}" data-act="react"` +
      ` data-emoji="${escapeHtml(type)}" title="${escapeHtml(type)}">` +
      `<span class="reaction-emoji">${glyph || escapeHtml(type)}</span>${
        glyph && !/^[A-Z]+$/.test(type)
          ? `<span class="reaction-type">${escapeHtml(type)}</span>`
          : ""
      }<span class="reaction-who">${escapeHtml(names.join(", "))}</span></button>`;
  }).join("");
  return chips ? `<div class="reactions">${chips}</div>` : "";
}

function actions(msg: PageMessage, o: BubbleOptions, inThread: boolean): string {
  if (msg.deleted || o.readOnly) return "";
  const picker = PICKER_EMOJIS.map((e) =>
    `<button type="button" data-act="react" data-emoji="${e}" title="${e}">${
      emojiGlyph(e)
    }</button>`
  ).join("");
  const thread = !inThread && o.mode !== "topic"
    ? `<button type="button" data-act="thread">Reply in thread</button>`
    : "";
  // People recall only what they sent themselves (the group owner's power is the API's).
  const recall = msg.sender.type === "user" && o.viewer !== undefined && msg.sender.id === o.viewer
    ? `<button type="button" data-act="recall" title="Recall this message">Recall</button>`
    : "";
  return `<div class="msg-actions"><button type="button" data-act="reply">Reply</button>${thread}` +
    `${recall}<span class="picker">${picker}</span></div>`;
}

function quote(msg: PageMessage, o: BubbleOptions, inThread: boolean): string {
  if (!msg.parent_id) return "";
  if (inThread && msg.parent_id === msg.root_id) return "";
  const parent = o.byId.get(msg.parent_id);
  if (!parent) return `<div class="quote">Reply to an earlier message</div>`;
  const ctx = contextFor(o.state, parent.mentions);
  return `<div class="quote" data-parent-id="${escapeHtml(parent.message_id)}">` +
    `<span class="quote-who">${escapeHtml(parent.sender.name)}:</span> ${
      escapeHtml(messagePreview(parent, ctx))
    }</div>`;
}

/**
 * Renders one message (see the module doc).
 *
 * @example
 * ```ts
 * import { renderBubble } from "./bubble.ts";
 * const html = renderBubble({
 *   message_id: "om_1", chat_id: "oc", thread_id: null, root_id: null, parent_id: null,
 *   msg_type: "text", content: { text: "hi" }, sender: { type: "app", id: "cli", name: "EmuBot" },
 *   create_time: 0, update_time: 0, deleted: true, updated: false, edit_count: 0,
 *   reactions: [], mentions: [],
 * }, { byId: new Map() });
 * if (!html.includes("This message was recalled") || html.includes(">hi<")) throw new Error(html);
 * ```
 */
export function renderBubble(msg: PageMessage, o: BubbleOptions, inThread = false): string {
  const ctx = contextFor(o.state, msg.mentions);
  const bot = msg.sender.type === "app";
  const mine = msg.sender.id === o.viewer;
  const time = (o.formatTime ?? utcTime)(msg.create_time);
  const edited = msg.edit_count > 0 && !msg.deleted ? `<span class="edited">edited</span>` : "";
  const cls = ["msg", bot ? "from-bot" : "from-user", mine ? "mine" : ""].filter(Boolean).join(" ");
  const body = msg.deleted
    ? `<div class="recalled">This message was recalled</div>`
    : `<div class="bubble bubble-${escapeHtml(msg.msg_type)}">${renderBody(msg, ctx)}</div>`;
  const toast = msg.toast && !msg.deleted ? toastHtml(msg.toast) : "";
  return `<div class="${cls}" data-message-id="${escapeHtml(msg.message_id)}">` +
    `<div class="avatar${bot ? " bot" : ""}">${escapeHtml([...msg.sender.name][0] ?? "?")}</div>` +
    `<div class="msg-main"><div class="msg-meta"><span class="sender">${
      escapeHtml(msg.sender.name)
    }</span>${bot ? `<span class="bot-tag">Bot</span>` : ""}<time>${
      escapeHtml(time)
    }</time>${edited}` +
    `</div>${quote(msg, o, inThread)}${body}${toast}${reactions(msg, o)}${
      actions(msg, o, inThread)
    }</div></div>`;
}

/**
 * Renders a timeline entry: the message, and its thread when it has one.
 *
 * @example
 * ```ts
 * import { renderEntry } from "./bubble.ts";
 * const m = {
 *   message_id: "om_1", chat_id: "oc", thread_id: "omt_1", root_id: null, parent_id: null,
 *   msg_type: "text", content: { text: "topic" }, sender: { type: "user", id: "ou", name: "Alice" },
 *   create_time: 0, update_time: 0, deleted: false, updated: false, edit_count: 0,
 *   reactions: [], mentions: [],
 * };
 * const html = renderEntry({ message: m, replies: [], threaded: true }, { byId: new Map(), mode: "topic" });
 * if (!html.startsWith('<section class="entry topic"') || !html.includes("Reply to topic")) throw new Error(html);
 * ```
 */
export function renderEntry(entry: TimelineEntry, o: BubbleOptions): string {
  const root = renderBubble(entry.message, o);
  const id = escapeHtml(entry.message.message_id);
  if (!entry.threaded) return `<section class="entry" data-entry-id="${id}">${root}</section>`;
  const topic = o.mode === "topic";
  const n = entry.replies.length;
  const count = n === 0
    ? ""
    : `<div class="thread-count">${n} ${n === 1 ? "reply" : "replies"}</div>`;
  const replies = entry.replies.map((r) => renderBubble(r, o, true)).join("");
  const label = topic ? "Reply to topic" : "Reply in thread";
  return `<section class="entry ${topic ? "topic" : "threaded"}" data-entry-id="${id}">${root}` +
    `<div class="thread">${count}${replies}<button type="button" class="thread-reply"` +
    ` data-act="thread" data-message-id="${id}">${label}</button></div></section>`;
}
