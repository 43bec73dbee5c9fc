/**
 * Waking the agent about one admitted message, on every configured lane:
 * a LICC v1 event file (LingTai), a `notifications/claude/channel` push
 * (Claude Code channels) and `resources/updated` for `feishu://inbox`;
 * the same for a business card callback and for an unanswered message
 * withdrawn (recalled).
 * Failures are logged, never raised; logs never carry message text.
 * @module
 */

import { type Clock, INBOX_URI, type Logger } from "../core/mod.ts";
import { buildChannelNotification } from "./channel.ts";
import type { PreviewEntry } from "./items.ts";
import { buildCardActionChannel, buildCardActionEvent } from "./card_action.ts";
import { buildMessageEvent, type LiccEvent, liccEventIdFor, writeLiccEvent } from "./licc.ts";
import { buildPreview, type ConversationPreview } from "./preview.ts";
import { buildRecallChannel, buildRecallEvent, recallKey } from "./recall.ts";
import type { CardActionRecord, IncomingMessageRecord } from "../store/mod.ts";

/** Where pushes go (the MCP server). */
export interface PushTarget {
  notifyChannel(params: { content: string; meta: Record<string, string> }): Promise<void>;
  notifyResourceUpdated(uri: string): Promise<void>;
  /** A permission verdict for the client (Claude Code channels). */
  notifyPermission?(params: { request_id: string; behavior: "allow" | "deny" }): Promise<void>;
}

/** Options of {@link createNotifier}. */
export interface NotifierOptions {
  /** The LICC inbox folder, or null when LICC is off. */
  liccDir: string | null;
  claudeChannel: boolean;
  push: PushTarget;
  clock: Clock;
  log: Logger;
}

/** Notifications written or pushed, and failures. */
export interface NotifierCounters {
  licc: number;
  channel: number;
  failures: number;
}

/** What the pipeline calls. */
export interface Notifier {
  /**
   * Notifies about `record`; `window` yields its chat window (oldest first,
   * including the record itself) and is read only when a lane needs it.
   * Never throws.
   */
  message(
    alias: string,
    record: IncomingMessageRecord,
    window: () => readonly PreviewEntry[],
    contactName: (openId: string) => string | null,
  ): Promise<void>;
  /** Notifies about a business card callback (same lanes, same rules). Never throws. */
  cardAction(
    alias: string,
    record: CardActionRecord,
    window: () => readonly PreviewEntry[],
    contactName: (openId: string) => string | null,
  ): Promise<void>;
  /**
   * Notifies that `record` (an unanswered message, now marked recalled) was
   * withdrawn (same lanes, same rules). Never throws.
   */
  recalled(
    alias: string,
    record: IncomingMessageRecord,
    window: () => readonly PreviewEntry[],
    contactName: (openId: string) => string | null,
  ): Promise<void>;
  counters: NotifierCounters;
}

/** How one record becomes each lane's notification. */
interface Lanes {
  id: string;
  chatId: string;
  /** The record the preview marks as current, when it is not `id`. */
  currentId?: string;
  licc(preview: ConversationPreview | null, nowMs: number): LiccEvent;
  channel(): { content: string; meta: Record<string, string> };
}

/** Builds the notifier. */
export function createNotifier(options: NotifierOptions): Notifier {
  const counters = { licc: 0, channel: 0, failures: 0 };
  const log = options.log;

  async function writeLicc(
    alias: string,
    lanes: Lanes,
    window: () => readonly PreviewEntry[],
    contactName: (openId: string) => string | null,
  ): Promise<void> {
    const nowMs = options.clock.now();
    try {
      let preview = null;
      try {
        preview = buildPreview(window(), {
          alias,
          chatId: lanes.chatId,
          currentId: lanes.currentId ?? lanes.id,
          nowMs,
          contactName,
        });
      } catch (err) {
        log.warn("preview failed; using the fallback body", { id: lanes.id, error: String(err) });
      }
      const res = await writeLiccEvent(lanes.licc(preview, nowMs), {
        dir: options.liccDir!,
        eventId: liccEventIdFor(lanes.id),
      });
      if (res.written) counters.licc++;
      else {
        counters.failures++;
        log.warn("LICC event refused", { id: lanes.id, reason: res.reason });
      }
    } catch (err) {
      counters.failures++;
      log.warn("LICC event not written", { id: lanes.id, error: (err as Error).message });
    }
  }

  async function deliver(
    alias: string,
    lanes: Lanes,
    window: () => readonly PreviewEntry[],
    contactName: (openId: string) => string | null,
  ): Promise<void> {
    if (options.liccDir) await writeLicc(alias, lanes, window, contactName);
    const target = options.push;
    if (options.claudeChannel) {
      try {
        await target.notifyChannel(lanes.channel());
        counters.channel++;
      } catch (err) {
        counters.failures++;
        log.warn("channel push failed", { id: lanes.id, error: (err as Error).message });
      }
    }
    try {
      await target.notifyResourceUpdated(INBOX_URI);
    } catch (err) {
      log.debug("resources/updated failed", { error: (err as Error).message });
    }
  }

  return {
    counters,
    message: (alias, record, window, contactName) =>
      deliver(
        alias,
        {
          id: record.id,
          chatId: record.chat_id,
          licc: (preview, nowMs) =>
            buildMessageEvent(record, { alias, preview, nowMs, contactName }),
          channel: () => buildChannelNotification(record, { alias, contactName }),
        },
        window,
        contactName,
      ),
    cardAction: (alias, record, window, contactName) =>
      deliver(
        alias,
        {
          id: record.id,
          chatId: record.chat_id,
          licc: (preview, nowMs) =>
            buildCardActionEvent(record, { alias, preview, nowMs, contactName }),
          channel: () => buildCardActionChannel(record, { alias, contactName }),
        },
        window,
        contactName,
      ),
    recalled: (alias, record, window, contactName) =>
      deliver(
        alias,
        {
          id: recallKey(record),
          chatId: record.chat_id,
          currentId: record.id,
          licc: (preview, nowMs) =>
            buildRecallEvent(record, { alias, preview, nowMs, contactName }),
          channel: () => buildRecallChannel(record, { alias, contactName }),
        },
        window,
        contactName,
      ),
  };
}
