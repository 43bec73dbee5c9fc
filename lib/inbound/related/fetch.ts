/**
 * The two inbound steps that read other messages from Feishu, run in the
 * chat's worker after the ACK: expanding a forwarded chat history into the
 * record, and filling a reply's `reply_to_message` with its parent. Neither
 * throws for Feishu's answer: a failure is kept on the record, bounded, like
 * a failed download. Only an abort (shutdown) propagates, so the job replays.
 * @module
 */

import { BridgeError, formatCompoundId, isoSeconds, type Logger } from "../../core/mod.ts";
import type { FeishuApi, FeishuMessage } from "../../feishu/mod.ts";
import type {
  AttachmentDescriptor,
  IncomingMessageRecord,
  ReplyParent,
  StoredRecord,
} from "../../store/mod.ts";
import { errorText } from "../attachments/mod.ts";
import { envelopeFromHistoryItem, normaliseMessage } from "../normalise/mod.ts";
import { buildForwardTree, type NormalisedChild, renderForward } from "./forward.ts";
import { parentPreview, unreadableParent } from "./quoted.ts";

/** Parents remembered per pipeline, so a parent is fetched once. */
export const PARENT_CACHE_SIZE = 512;

/** What the two steps need of one account and the store. */
export interface RelatedContext {
  alias: string;
  appId: string;
  api: Pick<FeishuApi, "getMessage">;
  botOpenId: string | null;
  /** A user's display name (cached, looked up once). */
  resolveName(openId: string): Promise<string | null>;
  /** The stored record with this compound id (a sent record's chunk ids included). */
  findRecord(compoundId: string): StoredRecord | null;
  /** Parents already fetched, shared by the account's messages. */
  parents: ParentCache;
  log: Logger;
  nowMs: number;
  signal?: AbortSignal;
}

/** A bounded memory of fetched parents, oldest forgotten first. */
export class ParentCache {
  readonly #max: number;
  readonly #map = new Map<string, ReplyParent>();

  /** A cache holding at most `max` parents. */
  constructor(max = PARENT_CACHE_SIZE) {
    this.#max = max;
  }

  /** The parent remembered under `key`. */
  get(key: string): ReplyParent | undefined {
    return this.#map.get(key);
  }

  /** Remembers a parent. */
  set(key: string, parent: ReplyParent): void {
    this.#map.delete(key);
    if (this.#map.size >= this.#max) this.#map.delete(this.#map.keys().next().value!);
    this.#map.set(key, parent);
  }
}

/** The sender id Feishu gives a message: an open_id for users, an app id for bots. */
function senderOf(m: FeishuMessage): { id: string; type: string | null } {
  const s = m.sender ?? {};
  return {
    id: typeof s.id === "string" ? s.id : "",
    type: typeof s.sender_type === "string" ? s.sender_type : null,
  };
}

/** One message Feishu returned, normalised the way an inbound message is. */
function normaliseItem(
  m: FeishuMessage,
  record: IncomingMessageRecord,
  ctx: RelatedContext,
): NormalisedChild {
  const sender = senderOf(m);
  const base = {
    message_id: m.messageId,
    message_type: m.msgType || "unknown",
    from_id: sender.id,
    sender_type: sender.type,
    date: isoSeconds(m.createTime ?? ctx.nowMs),
  };
  try {
    // Forwarded messages keep their original chat; one without falls back to ours.
    const raw = { ...m.raw, chat_id: m.chatId || record.chat_id };
    const norm = normaliseMessage(envelopeFromHistoryItem(raw, { chatType: record.chat_type }), {
      alias: ctx.alias,
      botOpenId: ctx.botOpenId,
      nowMs: ctx.nowMs,
    });
    if (norm) {
      return {
        ...base,
        text: norm.record.text,
        content: norm.record.content,
        descriptors: norm.descriptors,
      };
    }
  } catch (err) {
    ctx.log.debug("a forwarded message could not be normalised", { error: errorText(err) });
  }
  return {
    ...base,
    text: `[${base.message_type} message]`,
    content: { kind: "unknown", message_type: base.message_type },
    descriptors: [],
  };
}

/** Display names of the users among `ids` (bots keep none). */
async function namesOf(
  ids: readonly string[],
  ctx: RelatedContext,
): Promise<Map<string, string | null>> {
  const users = ids.filter((id) => id.startsWith("ou_"));
  const names = await Promise.all(users.map((id) => ctx.resolveName(id)));
  return new Map(users.map((id, i) => [id, names[i] ?? null]));
}

/** How a sender without a known name is shown in a transcript. */
function labelFor(ctx: RelatedContext) {
  return (id: string, senderType: string | null): string => {
    if (senderType === "app") return id === ctx.appId ? "this bot" : `bot ${id}`;
    return id || "unknown sender";
  };
}

function rethrowIfAborted(err: unknown, signal?: AbortSignal): void {
  if (signal?.aborted) throw err;
}

/**
 * Expands a `merge_forward` record in place: its `content` gets the
 * forwarded messages, its `text` the transcript. Returns the descriptors of
 * their media, to download with the record's own (by the forward's id).
 * On failure the placeholder stays, with the reason as `content.error` and
 * `error`.
 */
export async function expandForwardedHistory(
  record: IncomingMessageRecord,
  ctx: RelatedContext,
): Promise<AttachmentDescriptor[]> {
  if (record.content.kind !== "merge_forward") return [];
  let items: FeishuMessage[];
  try {
    items = await ctx.api.getMessage(record.feishu_message_id);
  } catch (err) {
    rethrowIfAborted(err, ctx.signal);
    const reason = `forwarded messages could not be fetched: ${errorText(err)}`;
    record.content = { ...record.content, error: errorText(reason) };
    record.error = errorText(reason);
    ctx.log.warn("feishu_forward_expansion_failed", {
      account: ctx.alias,
      id: record.id,
      error_code: err instanceof BridgeError ? err.code : "UNKNOWN",
      error: errorText(err),
    });
    return [];
  }
  const tree = buildForwardTree(
    record.feishu_message_id,
    items,
    (m) => normaliseItem(m, record, ctx),
  );
  const names = await namesOf(tree.senders, ctx);
  const out = renderForward(tree, { names, label: labelFor(ctx) });
  record.content = out.content;
  record.text = out.text;
  ctx.log.info("feishu_forward_expanded", {
    account: ctx.alias,
    id: record.id,
    messages: out.content.items.length,
    truncated: out.content.truncated,
    media: out.descriptors.length,
  });
  return out.descriptors;
}

/**
 * Fills `reply_to_message` of a reply: from the store when we hold the
 * parent, else from Feishu, fetched once per parent (remembered in
 * `ctx.parents`; a transient failure is not remembered, so the next reply
 * tries again). A parent Feishu refuses or lacks is marked unreadable.
 */
export async function fillReplyParent(
  record: IncomingMessageRecord,
  ctx: RelatedContext,
): Promise<void> {
  if (!record.parent_id) return;
  const id = record.reply_to ?? formatCompoundId(ctx.alias, record.chat_id, record.parent_id);
  const stored = ctx.findRecord(id);
  if (stored?.kind === "message") {
    record.reply_to_message = parentPreview(id, "store", stored.record);
    return;
  }
  if (stored?.kind === "sent") {
    record.reply_to_message = parentPreview(id, "store", stored.record, {
      sentByUs: { appId: ctx.appId },
    });
    // Said outright: the id is the bridge's own card, which no action may touch.
    if (stored.record.task_card === true) record.reply_to_message.task_card = true;
    if (stored.record.local_command === true) record.reply_to_message.local_command = true;
    return;
  }
  const remembered = ctx.parents.get(id);
  if (remembered) {
    record.reply_to_message = remembered;
    return;
  }
  let parent: ReplyParent;
  let remember = true;
  try {
    const items = await ctx.api.getMessage(record.parent_id);
    const item = items.find((m) => m.messageId === record.parent_id) ?? items[0];
    if (!item) parent = unreadableParent(id, "Feishu returned no message for this id");
    else if (item.deleted) parent = unreadableParent(id, "the message was recalled");
    else parent = await fetchedPreview(id, item, record, ctx);
  } catch (err) {
    rethrowIfAborted(err, ctx.signal);
    parent = unreadableParent(id, errorText(err));
    remember = err instanceof BridgeError && !err.retryable;
    ctx.log.info("feishu_parent_unreadable", {
      account: ctx.alias,
      id: record.id,
      parent: record.parent_id,
      error_code: err instanceof BridgeError ? err.code : "UNKNOWN",
    });
  }
  if (remember) ctx.parents.set(id, parent);
  record.reply_to_message = parent;
}

async function fetchedPreview(
  id: string,
  item: FeishuMessage,
  record: IncomingMessageRecord,
  ctx: RelatedContext,
): Promise<ReplyParent> {
  const child = normaliseItem(item, record, ctx);
  const name = child.from_id.startsWith("ou_") ? await ctx.resolveName(child.from_id) : null;
  return parentPreview(id, "feishu", {
    message_type: child.message_type,
    from_open_id: child.from_id,
    from_name: name,
    sender_type: child.sender_type,
    date: child.date,
    text: child.text,
  });
}
