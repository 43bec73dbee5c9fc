/**
 * Edit planning: materialise the new content for the message's chunk group and
 * say what to do with each member, all before any I/O.
 *
 * Same chunk count → update each member with its chunk; fewer → update the
 * first ones and delete the rest; more → `INVALID_ARGUMENT` (send a new
 * message instead). A member's `msg_type` cannot change (Feishu refuses);
 * progress cards stay progress cards; media, share and sticker messages cannot
 * be edited. Cards are updated with PATCH, text and posts with PUT.
 * @module
 */

import { finishedProgressCard } from "../../cards/mod.ts";
import { BridgeError } from "../core/mod.ts";
import type { Degradation } from "./markdown/mod.ts";
import { materialise, type MaterialiseOptions } from "./materialise.ts";
import { cardPreview } from "./preview.ts";
import { wrapProgressCard } from "./progress.ts";
import { EDITABLE_TYPES, type NormalisedContent, type WireBody } from "./types.ts";

/** The stored record fields edit planning reads (unknown: records come from disk). */
export interface EditableRecord {
  message_type?: unknown;
  content?: unknown;
  placeholder?: unknown;
  status?: unknown;
}

/** The message to edit: its record when found, and its chunk group. */
export interface EditTarget {
  record?: EditableRecord | null;
  group: readonly string[];
}

/** One member's operation, in group order. */
export type EditOperation =
  | { op: "update"; method: "PUT" | "PATCH"; messageId: string; chunkIndex: number; body: WireBody }
  | { op: "delete"; messageId: string; chunkIndex: number };

/** Everything the `edit` action needs to run and record the edit. */
export interface EditPlan {
  /** What the record holds after a full success (a progress card when the target is one). */
  content: NormalisedContent;
  /** The response's `content_type`: `card` for progress cards, else the new content's type. */
  contentType: string;
  /** Whether the target is (and stays) a progress card. */
  placeholder: boolean;
  operations: EditOperation[];
  degradations: Degradation[];
}

/** Record `message_type`s that name a wire type an edit may keep. */
const EDITABLE_WIRE = new Set(["text", "post", "interactive"]);

function invalid(message: string): BridgeError {
  return new BridgeError("INVALID_ARGUMENT", message);
}

/** Whether a record is a progress card. */
export function isProgressRecord(record: EditableRecord | null | undefined): boolean {
  return record?.placeholder === true || record?.status === "placeholder";
}

/**
 * Plans an edit of `target` to `content` (already normalised in edit mode).
 *
 * @example A short text replaces a two-chunk text message: edit one, delete one
 * ```ts
 * import { planEdit } from "./edit_plan.ts";
 * const content = { type: "text", recordContent: { type: "text", text: "new" }, previewText: "new", messageType: "text" } as const;
 * const plan = planEdit({ record: { message_type: "text" }, group: ["m:c:1", "m:c:2"] }, content);
 * if (plan.operations.map((o) => o.op).join() !== "update,delete") throw new Error();
 * ```
 */
export function planEdit(
  target: EditTarget,
  content: NormalisedContent,
  options: MaterialiseOptions = {},
): EditPlan {
  if (!EDITABLE_TYPES.includes(content.type)) {
    throw invalid("edit only supports text, markdown, post, or card content");
  }
  if (target.group.length === 0) {
    throw new TypeError("Expected a chunk group with at least one member but found none");
  }
  const record = target.record ?? undefined;
  const recordType = recordContentType(record);
  if (recordType !== undefined && !EDITABLE_TYPES.includes(recordType as never)) {
    throw invalid(
      `Expected a text, markdown, post or card message to edit but found ${recordType}; ` +
        "media, share and sticker messages cannot be edited",
    );
  }
  const placeholder = isProgressRecord(record);
  const next = placeholder ? wrapProgressCard(content, { mode: "edit" }) : content;
  const { bodies, degradations } = materialise(next, options);
  const wire = typeof record?.message_type === "string" ? record.message_type : undefined;
  if (wire !== undefined && !EDITABLE_WIRE.has(wire)) {
    throw invalid(
      `Expected a text, post or interactive message to edit but found ${wire}; ` +
        "media, share and sticker messages cannot be edited",
    );
  }
  for (const body of bodies) {
    if (wire !== undefined && body.msg_type !== wire) {
      throw invalid(
        `Expected the edit to keep msg_type ${wire} but found ${body.msg_type} ` +
          `(${content.type} content); Feishu cannot change a message's type, send a new message instead`,
      );
    }
  }
  const members = target.group.length;
  if (bodies.length > members) {
    throw invalid(
      `Expected the edited content to fit in ${members} message${members === 1 ? "" : "s"} ` +
        `but found ${bodies.length}; send a new message instead`,
    );
  }
  const operations: EditOperation[] = target.group.map((messageId, i) => {
    const body = bodies[i];
    if (body === undefined) return { op: "delete", messageId, chunkIndex: i + 1 };
    const method = body.msg_type === "interactive" ? "PATCH" : "PUT";
    return { op: "update", method, messageId, chunkIndex: i + 1, body };
  });
  return {
    content: next,
    contentType: placeholder ? "card" : content.type,
    placeholder,
    operations,
    degradations,
  };
}

function recordContentType(record: EditableRecord | undefined): string | undefined {
  const c = record?.content;
  if (typeof c !== "object" || c === null) return undefined;
  const type = (c as { type?: unknown }).type;
  return typeof type === "string" ? type : undefined;
}

/**
 * The finished frame of a progress card from its record `content` (`{type:
 * "card", card}`), as content an edit can carry; null when the record does
 * not hold one of our progress cards.
 *
 * @example
 * ```ts
 * import { finishedProgressContent } from "./edit_plan.ts";
 * import { wrapProgressCard } from "./progress.ts";
 * const text = { type: "text", recordContent: { type: "text", text: "step 2" }, previewText: "step 2", messageType: "text" } as const;
 * const open = wrapProgressCard(text, { mode: "send" });
 * if (finishedProgressContent(open.recordContent)?.previewText !== "LingTai\n✅ step 2") throw new Error();
 * if (finishedProgressContent({ type: "text", text: "x" }) !== null) throw new Error();
 * ```
 */
export function finishedProgressContent(recordContent: unknown): NormalisedContent | null {
  const card = (recordContent as { type?: unknown; card?: unknown } | null)?.type === "card"
    ? (recordContent as { card?: unknown }).card
    : undefined;
  if (typeof card !== "object" || card === null || Array.isArray(card)) return null;
  const done = finishedProgressCard(card as Record<string, unknown>);
  if (done === null) return null;
  return {
    type: "card",
    recordContent: { type: "card", card: done },
    previewText: cardPreview(done),
    messageType: "interactive",
  };
}
