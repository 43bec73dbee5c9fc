/**
 * A message recalled on Feishu (`im.message.recalled_v1`), handled in the
 * message's chat FIFO, after that message's own job. The stored record is
 * marked `recalled` (Feishu's role of who did it, and when) and, unless
 * `privacy.keep_recalled`, loses its text, content, raw content and
 * attachments (files included; the search index follows the record). A
 * Typing on that message goes (it does not move back to an earlier one: see
 * lib/presence). When the agent was woken for it and has not answered it
 * (no message of the bot in the chat since), the agent is told it was
 * withdrawn. A message never stored (not admitted, a local command, the
 * bot's own) gets none of this. The caller records the passive event: for a
 * message we stored, whoever recalled it; for any other, as admission
 * decides (Feishu names no actor, so an account that restricts who talks to
 * it records none).
 * @module
 */

import type { Account } from "../account/mod.ts";
import { type Clock, formatCompoundId, isoSeconds, type Logger } from "../core/mod.ts";
import type { ConversationLog } from "../conversation/mod.ts";
import type { RawEnvelope } from "../feishu/mod.ts";
import { stopTypingOn } from "../presence/mod.ts";
import type { IncomingMessageRecord, Store } from "../store/mod.ts";
import { attachmentsDir } from "./attachments/mod.ts";
import { asNumber, asObject, asText } from "./normalise/_json.ts";

/** What the text of a recalled message becomes when it is removed. */
export const RECALLED_TEXT = "[recalled]";

/** What a recall event says. */
export interface RecallNotice {
  messageId: string;
  chatId: string;
  /** `message_owner`, `group_owner`, `group_manager` or `enterprise_manager`. */
  recallType: string;
  /** Feishu's `recall_time` (ms), else null. */
  recallTimeMs: number | null;
}

/**
 * Reads a recall envelope; null when it names no message or chat.
 *
 * @example
 * ```ts
 * import { readRecall } from "./recall.ts";
 * const r = readRecall({ event: { message_id: "om_1", chat_id: "oc_1", recall_time: "1700000000000",
 *   recall_type: "group_owner" } });
 * if (r?.recallTimeMs !== 1700000000000 || r.recallType !== "group_owner") throw new Error();
 * if (readRecall({ event: { chat_id: "oc_1" } }) !== null) throw new Error();
 * ```
 */
export function readRecall(envelope: RawEnvelope): RecallNotice | null {
  const e = asObject(envelope.event) ?? {};
  const messageId = asText(e.message_id);
  const chatId = asText(e.chat_id);
  if (!messageId || !chatId) return null;
  return {
    messageId,
    chatId,
    recallType: asText(e.recall_type) ?? "unknown",
    recallTimeMs: asNumber(e.recall_time) ?? null,
  };
}

/**
 * The record as it reads once recalled: marked, and unless `keep` without
 * its text, content (the raw envelope's too), transcript and attachments.
 *
 * @example
 * ```ts
 * import { recalledRecord } from "./recall.ts";
 * import assert from "node:assert/strict";
 * const record = {
 *   id: "main:oc_1:om_1", feishu_message_id: "om_1", chat_id: "oc_1", chat_type: "p2p" as const,
 *   thread_id: null, message_type: "text", from_open_id: "ou_a", from_user_id: null, from_union_id: null,
 *   from_name: "Ann", sender_type: "user", sender_is_bot: false, text: "secret", date: "2026-08-03T09:15:02Z",
 *   parent_id: "", root_id: "", reply_to: null, mentions: [], content: { kind: "text" as const, text: "secret" },
 *   attachments: [], media: null, voice_transcript: null,
 *   feishu: { event: { message: { message_id: "om_1", content: '{"text":"secret"}' } } },
 * };
 * const gone = recalledRecord(record, { at: "2026-08-03T09:16:00Z", by: "message_owner" }, false);
 * assert.equal(gone.text, "[recalled]");
 * assert.ok(!JSON.stringify(gone).includes("secret"));
 * assert.equal(recalledRecord(record, { at: "x", by: "y" }, true).text, "secret");
 * ```
 */
export function recalledRecord(
  record: IncomingMessageRecord,
  mark: { at: string; by: string },
  keep: boolean,
): IncomingMessageRecord {
  const recalled = { at: mark.at, by: mark.by, removed: !keep };
  if (keep) return { ...record, recalled };
  return {
    ...record,
    text: RECALLED_TEXT,
    content: { kind: "recalled", message_type: record.message_type },
    attachments: [],
    media: null,
    voice_transcript: null,
    recalled,
    feishu: withoutContent(record.feishu),
  };
}

/** The raw envelope without the message's content (its header and ids stay). */
function withoutContent(feishu: IncomingMessageRecord["feishu"]): IncomingMessageRecord["feishu"] {
  const event = asObject(feishu.event);
  const message = asObject(event?.message);
  if (!event || !message) return feishu;
  const { content: _content, ...rest } = message;
  return { ...feishu, event: { ...event, message: rest } };
}

/** What {@link handleRecall} needs. */
export interface RecallDeps {
  store: Store;
  clock: Clock;
  log: Logger;
  workdir: string;
  conversation: ConversationLog;
  /** `privacy.keep_recalled`: the text and files stay (default false). */
  keepRecalled?: boolean;
}

/**
 * Applies a recall to the stored message (idempotent: a replay finishes
 * what a crash cut off). True when the store held that message (it was
 * admitted), so its recall belongs in `events` whoever did it.
 */
export async function handleRecall(
  deps: RecallDeps,
  account: Account,
  envelope: RawEnvelope,
): Promise<boolean> {
  const notice = readRecall(envelope);
  if (!notice) return false;
  const alias = account.alias;
  const id = formatCompoundId(alias, notice.chatId, notice.messageId);
  const stored = deps.store.records.get(alias, id);
  if (stored?.kind !== "message") return false;
  const at = notice.recallTimeMs ?? deps.clock.now();
  const record = recalledRecord(
    stored.record,
    { at: isoSeconds(at), by: notice.recallType },
    deps.keepRecalled === true,
  );
  // Answered: the bot wrote in the chat since; never woken (or held by the bot
  // loop guard): the agent never saw it.
  const notify = deps.store.records.isNotified(alias, id) && stored.record.wake_held !== true &&
    !deps.store.records.answeredAfter(alias, stored);
  const outcome = await deps.conversation.recall(account, record, { at, notify });
  if (!deps.keepRecalled) {
    // After the mark, so the record never points at files already gone; again on a replay.
    await Deno.remove(attachmentsDir(deps.workdir, alias, notice.messageId), { recursive: true })
      .catch((err) => {
        if (!(err instanceof Deno.errors.NotFound)) throw err;
      });
  }
  stopTypingOn(
    { account, typing: deps.store.typing, log: deps.log },
    notice.chatId,
    notice.messageId,
  );
  deps.log.info("feishu_recalled", { account: alias, id, outcome, notified: notify });
  return true;
}
