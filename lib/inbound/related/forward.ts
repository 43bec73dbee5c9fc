/**
 * A forwarded chat history (`merge_forward`) from the flat list Feishu returns
 * for it: the container first, then every forwarded message, each naming its
 * container in `upper_message_id`. Pure: the list is rebuilt into a tree,
 * bounded in depth, count and size, and rendered as the record's `content`,
 * a readable transcript and the descriptors of its media.
 * @module
 */

import { truncateCodePoints } from "../../core/mod.ts";
import type { AttachmentDescriptor, ForwardedMessage, MessageContent } from "../../store/mod.ts";

/** The bounds of one expansion. */
export interface ForwardLimits {
  /** Levels of forwarded messages shown; a forward nested deeper is summarised. */
  depth: number;
  /** Forwarded messages kept in all, nested ones included. */
  messages: number;
  /** Code points of one message's text in the transcript and its item. */
  itemChars: number;
  /** Code points of the whole transcript. */
  textChars: number;
  /** JSON characters of all items together (their normalised content included). */
  contentChars: number;
  /** Media descriptors taken from the forwarded messages. */
  attachments: number;
}

/** The bounds used unless a caller gives others. */
export const FORWARD_LIMITS: ForwardLimits = {
  depth: 3,
  messages: 100,
  itemChars: 2_000,
  textChars: 20_000,
  contentChars: 256 * 1024,
  attachments: 20,
};

/** One item of Feishu's list, as much as the tree needs. */
export interface ForwardItem {
  messageId: string;
  upperMessageId: string | null;
}

/** One forwarded message after normalisation (by the caller's normaliser). */
export interface NormalisedChild {
  message_id: string;
  message_type: string;
  from_id: string;
  sender_type: string | null;
  date: string;
  text: string;
  content: MessageContent;
  descriptors: AttachmentDescriptor[];
}

/** A node of the tree: a message and, for a nested forward, what it holds. */
interface Node {
  child: NormalisedChild;
  children: Node[];
  /** Messages a nested forward holds that the depth bound left out. */
  omitted: number;
}

/** The tree of one forward, before names are known. */
export interface ForwardTree {
  nodes: Node[];
  truncated: boolean;
  /** Every sender id in the tree, once each, for the caller to resolve names. */
  senders: string[];
}

/** The expansion of one forward. */
export interface Expansion {
  content: Extract<MessageContent, { kind: "merge_forward" }>;
  text: string;
  descriptors: AttachmentDescriptor[];
}

/**
 * Builds the tree under `rootId` from Feishu's flat list, normalising each
 * message it keeps. Order is the list's order within each container; an
 * item seen twice, or one that would close a loop, is kept once. Stops at
 * `limits.messages` messages and `limits.depth` levels.
 */
export function buildForwardTree<T extends ForwardItem>(
  rootId: string,
  items: readonly T[],
  normalise: (item: T) => NormalisedChild,
  limits: ForwardLimits = FORWARD_LIMITS,
): ForwardTree {
  const byContainer = new Map<string, T[]>();
  const seen = new Set<string>([rootId]);
  for (const item of items) {
    if (!item.upperMessageId || seen.has(item.messageId)) continue;
    seen.add(item.messageId);
    const list = byContainer.get(item.upperMessageId) ?? [];
    list.push(item);
    byContainer.set(item.upperMessageId, list);
  }
  let kept = 0;
  let truncated = false;
  const visited = new Set<string>([rootId]);
  const walk = (containerId: string, depth: number): Node[] => {
    const nodes: Node[] = [];
    for (const item of byContainer.get(containerId) ?? []) {
      if (visited.has(item.messageId)) continue;
      if (kept >= limits.messages) {
        truncated = true;
        break;
      }
      visited.add(item.messageId);
      kept++;
      const child = normalise(item);
      const inner = byContainer.get(item.messageId) ?? [];
      let children: Node[] = [];
      let omitted = 0;
      if (inner.length > 0 && depth >= limits.depth) {
        omitted = inner.length;
        truncated = true;
      } else if (inner.length > 0) children = walk(item.messageId, depth + 1);
      nodes.push({ child, children, omitted });
    }
    return nodes;
  };
  const nodes = walk(rootId, 1);
  return { nodes, truncated, senders: senderIds(nodes) };
}

/** Everything a rendering pass carries along. */
interface Render {
  names: ReadonlyMap<string, string | null>;
  label: (id: string, senderType: string | null) => string;
  limits: ForwardLimits;
  descriptors: AttachmentDescriptor[];
  descriptorKeys: Set<string>;
  contentChars: number;
  truncated: boolean;
}

function collectDescriptors(r: Render, list: readonly AttachmentDescriptor[]): void {
  for (const d of list) {
    const key = `${d.type}\u0000${d.file_key}`;
    if (r.descriptorKeys.has(key)) continue;
    if (r.descriptors.length >= r.limits.attachments) {
      r.truncated = true;
      return;
    }
    r.descriptorKeys.add(key);
    r.descriptors.push(d);
  }
}

/** Items and transcript lines of one level. */
function renderLevel(r: Render, nodes: readonly Node[]): {
  items: ForwardedMessage[];
  lines: string[];
} {
  const items: ForwardedMessage[] = [];
  const lines: string[] = [];
  for (const node of nodes) {
    const c = node.child;
    const text = truncateCodePoints(c.text, r.limits.itemChars);
    const nested = c.content.kind === "merge_forward" ? renderNested(r, node) : undefined;
    const item: ForwardedMessage = {
      message_id: c.message_id,
      message_type: c.message_type,
      from_id: c.from_id,
      from_name: r.names.get(c.from_id) ?? null,
      sender_type: c.sender_type,
      date: c.date,
      text: nested ? nested.text : text,
      content: nested ? nested.content : c.content,
    };
    const size = JSON.stringify(item).length;
    if (r.contentChars + size > r.limits.contentChars) {
      r.truncated = true;
      break;
    }
    r.contentChars += size;
    items.push(item);
    if (!nested) collectDescriptors(r, c.descriptors);
    const who = r.names.get(c.from_id) || r.label(c.from_id, c.sender_type);
    const body = nested ? nested.lines : text.split("\n");
    const [first = "", ...rest] = body;
    // Continuation lines, a nested forward's included, sit two spaces in.
    lines.push(`[${c.date}] ${who}: ${first}`);
    for (const line of rest) lines.push(`  ${line}`);
  }
  return { items, lines };
}

/** A forward inside the forward: its own items, or a summary past the depth bound. */
function renderNested(r: Render, node: Node) {
  const level = renderLevel(r, node.children);
  const truncated = node.omitted > 0;
  const content: Expansion["content"] = {
    kind: "merge_forward",
    loading: false,
    items: level.items,
    truncated,
    error: null,
  };
  if (truncated) {
    const tag = `<forwarded_messages count="${node.omitted}" omitted="depth limit"/>`;
    return { content, text: tag, lines: [tag] };
  }
  const open = `<forwarded_messages count="${level.items.length}">`;
  const lines = [open, ...level.lines, "</forwarded_messages>"];
  return { content, text: lines.join("\n"), lines };
}

/**
 * Renders a tree: its `content` (items in order, nested forwards holding
 * their own), the transcript text and the media descriptors of the
 * forwarded messages. `names` maps sender ids to display names; a sender
 * without one is shown as `label` says.
 *
 * @example Two messages, one an image
 * ```ts
 * import { buildForwardTree, renderForward } from "./forward.ts";
 * import assert from "node:assert/strict";
 * const items = [
 *   { messageId: "om_f", upperMessageId: null },
 *   { messageId: "om_1", upperMessageId: "om_f", text: "hi" },
 *   { messageId: "om_2", upperMessageId: "om_f", image: "img_1" },
 * ];
 * const tree = buildForwardTree("om_f", items, (i) => ({
 *   message_id: i.messageId, message_type: i.image ? "image" : "text", from_id: "ou_a",
 *   sender_type: "user", date: "2026-01-01T00:00:00Z", text: i.text ?? `<image key="${i.image}"/>`,
 *   content: { kind: "text", text: i.text ?? "" },
 *   descriptors: i.image ? [{ type: "image", file_key: i.image }] : [],
 * }));
 * assert.deepEqual(tree.senders, ["ou_a"]);
 * const out = renderForward(tree, { names: new Map([["ou_a", "Ann"]]), label: (id) => id });
 * assert.equal(out.content.items.length, 2);
 * assert.equal(out.text.split("\n")[1], "[2026-01-01T00:00:00Z] Ann: hi");
 * assert.deepEqual(out.descriptors, [{ type: "image", file_key: "img_1" }]);
 * ```
 */
export function renderForward(
  tree: ForwardTree,
  options: {
    names: ReadonlyMap<string, string | null>;
    label: (id: string, senderType: string | null) => string;
    limits?: ForwardLimits;
  },
): Expansion {
  const limits = options.limits ?? FORWARD_LIMITS;
  const r: Render = {
    names: options.names,
    label: options.label,
    limits,
    descriptors: [],
    descriptorKeys: new Set(),
    contentChars: 0,
    truncated: tree.truncated,
  };
  const level = renderLevel(r, tree.nodes);
  const lines = [...level.lines];
  if (r.truncated) {
    lines.push("[some forwarded messages are not shown: a depth, count or size bound]");
  }
  let body = lines.join("\n");
  if (Array.from(body).length > limits.textChars) {
    body = `${
      truncateCodePoints(body, limits.textChars)
    }\n[transcript cut at ${limits.textChars} characters]`;
    r.truncated = true;
  }
  const text = level.items.length === 0
    ? `<forwarded_messages count="0"/>`
    : `<forwarded_messages count="${level.items.length}">\n${body}\n</forwarded_messages>`;
  return {
    content: {
      kind: "merge_forward",
      loading: false,
      items: level.items,
      truncated: r.truncated,
      error: null,
    },
    text,
    descriptors: r.descriptors,
  };
}

/** The senders of every message in the tree, once each, in order. */
function senderIds(nodes: readonly Node[]): string[] {
  const out = new Set<string>();
  const walk = (list: readonly Node[]) => {
    for (const n of list) {
      if (n.child.from_id) out.add(n.child.from_id);
      walk(n.children);
    }
  };
  walk(nodes);
  return [...out];
}
