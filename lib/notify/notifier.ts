/**
 * Waking the agent about one admitted message, on every configured lane:
 * a LICC v1 event file (LingTai), a `notifications/claude/channel` push
 * (Claude Code channels) and `resources/updated` for `feishu://inbox`.
 * Failures are logged, never raised; logs never carry message text.
 * @module
 */

import { type Clock, INBOX_URI, type Logger } from "../core/mod.ts";
import { buildChannelNotification } from "./channel.ts";
import type { PreviewEntry } from "./items.ts";
import { buildMessageEvent, liccEventIdFor, writeLiccEvent } from "./licc.ts";
import { buildPreview } from "./preview.ts";
import type { IncomingMessageRecord } from "../store/mod.ts";

/** Where pushes go (the MCP server). */
export interface PushTarget {
  notifyChannel(params: { content: string; meta: Record<string, string> }): Promise<void>;
  notifyResourceUpdated(uri: string): Promise<void>;
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
  counters: NotifierCounters;
}

/** Builds the notifier. */
export function createNotifier(options: NotifierOptions): Notifier {
  const counters = { licc: 0, channel: 0, failures: 0 };
  return {
    counters,
    async message(alias, record, window, contactName) {
      const nowMs = options.clock.now();
      if (options.liccDir) {
        try {
          let preview = null;
          try {
            preview = buildPreview(window(), {
              alias,
              chatId: record.chat_id,
              currentId: record.id,
              nowMs,
              contactName,
            });
          } catch (err) {
            options.log.warn("preview failed; using the fallback body", {
              id: record.id,
              error: String(err),
            });
          }
          const event = buildMessageEvent(record, { alias, preview, nowMs, contactName });
          const res = await writeLiccEvent(event, {
            dir: options.liccDir,
            eventId: liccEventIdFor(record.id),
          });
          if (res.written) counters.licc++;
          else {
            counters.failures++;
            options.log.warn("LICC event refused", { id: record.id, reason: res.reason });
          }
        } catch (err) {
          counters.failures++;
          options.log.warn("LICC event not written", {
            id: record.id,
            error: (err as Error).message,
          });
        }
      }
      const target = options.push;
      if (options.claudeChannel) {
        try {
          await target.notifyChannel(buildChannelNotification(record, { alias, contactName }));
          counters.channel++;
        } catch (err) {
          counters.failures++;
          options.log.warn("channel push failed", { id: record.id, error: (err as Error).message });
        }
      }
      try {
        await target.notifyResourceUpdated(INBOX_URI);
      } catch (err) {
        options.log.debug("resources/updated failed", { error: (err as Error).message });
      }
    },
  };
}
