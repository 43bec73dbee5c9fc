/**
 * The read side over the store: `check`, `read`, `search`. No Feishu I/O;
 * `read` marks as read exactly the incoming records it returned.
 * @module
 */

import { withoutTokens } from "../callbacks/mod.ts";
import { BridgeError, truncateCodePoints } from "../core/mod.ts";
import type { RawEnvelope } from "../feishu/mod.ts";
import type { CheckInput, ReadInput, SearchInput } from "../mcp/family/mod.ts";
import type { StoredRecord } from "../store/mod.ts";
import { type ActionContext, resolveAccount } from "./context.ts";

/** Keys of a `read` item, in order (every key present, null when unset). */
export const READ_KEYS = [
  "id",
  "feishu_message_id",
  "message_ids",
  "chunks",
  "status",
  "lifecycle",
  "partial_delivery",
  "chunk_count",
  "delivered_chunk_count",
  "failed_chunk_index",
  "unknown_chunk_index",
  "error_code",
  "retryable",
  "retry_after_seconds",
  "automatic_retry_allowed",
  "chat_id",
  "chat_type",
  "thread_id",
  "from_open_id",
  "from_user_id",
  "from_union_id",
  "from_name",
  "sender_type",
  "sender_is_bot",
  "wake_held",
  "to",
  "message_type",
  "text",
  "date",
  "create_time_ms",
  "edited_at",
  "edited_message_ids",
  "placeholder",
  "finished_at",
  "deleted_at",
  "deleted_message_ids",
  "parent_id",
  "root_id",
  "reply_to",
  "reply_to_message",
  "reply_in_thread",
  "mentions",
  "content",
  "attachments",
  "media",
  "voice_transcript",
  "transcription_status",
  "backfilled",
  "delayed_seconds",
  "error",
  "recalled",
  "event_type",
  "feishu_event_id",
  "synthetic",
  "source_chat_id",
  "source_message_id",
  "source_message_ref",
  "card_action",
  "event",
  "feishu",
  "_direction",
] as const;

/** Keys of a `search` match, in order. */
export const SEARCH_KEYS = [
  "id",
  "from_open_id",
  "from_name",
  "chat_id",
  "thread_id",
  "date",
  "text",
  "parent_id",
  "root_id",
  "reply_to",
  "reply_to_message",
  "mentions",
  "content",
  "attachments",
  "media",
  "voice_transcript",
  "recalled",
  "event_type",
  "synthetic",
  "source_chat_id",
  "event",
  "feishu",
] as const;

const DEFAULTS: Record<string, unknown> = {
  partial_delivery: false,
  mentions: [],
  attachments: [],
  synthetic: false,
  backfilled: false,
  wake_held: false,
};

function project(rec: object, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k] = Reflect.get(rec, k) ?? (k in DEFAULTS ? DEFAULTS[k] : null);
  // A click's envelope is shown without its tokens (records from before they were stripped too).
  const raw = out.feishu;
  if (
    Reflect.get(rec, "message_type") === "card_action" && typeof raw === "object" && raw !== null
  ) {
    out.feishu = withoutTokens(raw as RawEnvelope);
  }
  return out;
}

function senderName(ctx: ActionContext, alias: string, r: StoredRecord): string {
  if (r.direction === "outgoing") return "me";
  const own = r.record.from_name;
  if (typeof own === "string" && own) return own;
  const openId = r.record.from_open_id;
  return typeof openId === "string" && openId ? ctx.store.contacts.displayName(alias, openId) : "";
}

/** The longest `search` pattern, in code points; a longer one is INVALID_ARGUMENT. */
export const SEARCH_PATTERN_MAX_CODE_POINTS = 1000;

/** How many of the most recent conversations `check` lists besides the unread ones. */
export const CHECK_RECENT = 50;
/** At most this many conversations in one `check` answer, unread ones first. */
export const CHECK_MAX = 200;

/**
 * The conversations `check` lists, newest first: every one with unread
 * messages and the {@link CHECK_RECENT} most recent, at most
 * {@link CHECK_MAX} in all (the newest unread ones win), so a long-lived bot
 * with hundreds of chats answers in milliseconds and the agent reads a page,
 * not a directory.
 *
 * @example
 * ```ts
 * import { checkSelection } from "./inbox.ts";
 * const convs = Array.from({ length: 60 }, (_, i) => ({ unread: i === 59 ? 1 : 0 }));
 * const picked = checkSelection(convs);
 * if (picked.length !== 51 || picked.at(-1) !== convs[59]) throw new Error();
 * ```
 */
export function checkSelection<T extends { unread: number }>(convs: readonly T[]): T[] {
  const keep = new Set<T>();
  for (const c of convs) {
    if (keep.size >= CHECK_MAX) break;
    if (c.unread > 0) keep.add(c);
  }
  for (const c of convs.slice(0, CHECK_RECENT)) {
    if (keep.size >= CHECK_MAX) break;
    keep.add(c);
  }
  return convs.filter((c) => keep.has(c));
}

/**
 * `check`: conversations with unread counts, newest first (see
 * {@link checkSelection}); `total` counts the messages of every conversation,
 * and `omitted_conversations` those not listed.
 */
export function check(ctx: ActionContext, input: CheckInput): Record<string, unknown> {
  const acct = resolveAccount(ctx, input.account);
  const convs = ctx.store.records.conversations(acct.alias);
  let total = 0;
  for (const c of convs) total += c.total;
  const listed = checkSelection(convs);
  const conversations = listed.map((c) => {
    const r = c.newest;
    const outgoing = r.direction === "outgoing";
    const openId = outgoing ? "" : r.fromOpenId ?? "";
    return {
      chat_id: c.chatId,
      chat_type: r.chatType ?? "p2p",
      last_thread_id: r.threadId,
      last_from_open_id: openId,
      last_from_name: outgoing
        ? "me"
        : r.fromName || (openId ? ctx.store.contacts.displayName(acct.alias, openId) : ""),
      last_text: truncateCodePoints(r.text ?? "", 100, ""),
      last_date: r.date ?? "",
      total: c.total,
      unread: c.unread,
    };
  });
  const omitted = convs.length - listed.length;
  return omitted > 0
    ? { status: "ok", total, conversations, omitted_conversations: omitted }
    : { status: "ok", total, conversations };
}

/**
 * `read`: a chat's records, newest first by Feishu's create time (ms), then
 * arrival; marks the incoming ones read.
 */
export function read(ctx: ActionContext, input: ReadInput): Record<string, unknown> {
  const acct = resolveAccount(ctx, input.account);
  if (!input.chat_id) throw new BridgeError("INVALID_ARGUMENT", "chat_id is required");
  const limit = input.limit === undefined ? 10 : input.limit;
  if (limit !== null && !Number.isSafeInteger(limit)) {
    throw new BridgeError(
      "INVALID_ARGUMENT",
      `Expected limit to be at most ${Number.MAX_SAFE_INTEGER} (or null for all)`,
    );
  }
  const rows = ctx.store.records.listChat(acct.alias, input.chat_id, limit);
  ctx.store.records.markRead(
    acct.alias,
    rows.filter((r) => r.direction === "incoming").map((r) => r.id),
  );
  const messages = rows.map((r) => ({
    ...project(r.record, READ_KEYS),
    // The stored sort key: Feishu's create time in ms for every record, old ones included.
    create_time_ms: r.createTime,
    from_name: senderName(ctx, acct.alias, r),
    _direction: r.direction,
  }));
  return { status: "ok", messages };
}

/** `search`: a case-insensitive regex over incoming records, newest first, capped. */
export async function search(
  ctx: ActionContext,
  input: SearchInput,
): Promise<Record<string, unknown>> {
  const acct = resolveAccount(ctx, input.account);
  if (!input.query) throw new BridgeError("INVALID_ARGUMENT", "query is required");
  const length = [...input.query].length;
  if (length > SEARCH_PATTERN_MAX_CODE_POINTS) {
    // The pattern itself is never echoed: neither the result nor a log line grows with it.
    throw new BridgeError(
      "INVALID_ARGUMENT",
      `Expected query to be at most ${SEARCH_PATTERN_MAX_CODE_POINTS} code points but found ${length}`,
    );
  }
  try {
    new RegExp(input.query, "i");
  } catch (err) {
    throw new BridgeError(
      "INVALID_ARGUMENT",
      `Invalid regex: ${truncateCodePoints((err as Error).message, 300)}`,
    );
  }
  const out = await ctx.store.searcher.search({
    account: acct.alias,
    chatId: input.chat_id ? input.chat_id : null,
    pattern: input.query,
  });
  const messages = out.records.map((rec) => {
    const item = project(rec, SEARCH_KEYS);
    if (!item.from_name && typeof rec.from_open_id === "string" && rec.from_open_id) {
      item.from_name = ctx.store.contacts.displayName(acct.alias, rec.from_open_id);
    }
    item.from_name ??= "";
    return item;
  });
  const result: Record<string, unknown> = { status: "ok", total: out.total, messages };
  if (out.timedOut) {
    result.truncated = true;
    result.warning =
      "Search stopped at its time budget; results are partial. Narrow the pattern or pass chat_id.";
  }
  return result;
}
