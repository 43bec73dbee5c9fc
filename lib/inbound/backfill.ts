/**
 * Gap backfill: after a reconnect or a stall, list each active chat's history
 * since its newest stored incoming message and feed unseen messages through
 * the same intake (same dedupe keys), flagged as backfilled. Nothing is
 * admitted twice; nothing that arrived while we were away is lost.
 * @module
 */

import type { Logger } from "../core/mod.ts";
import type { FeishuApi, FeishuMessage } from "../feishu/mod.ts";
import type { RecordStore } from "../store/mod.ts";
import type { Intake } from "./intake.ts";
import { envelopeFromHistoryItem } from "./normalise/mod.ts";

/** Options of {@link backfill}. */
export interface BackfillOptions {
  api: FeishuApi;
  records: RecordStore;
  intake: Intake;
  log: Logger;
  now: () => number;
  /** Look back this far before the newest stored message (clock skew, same-second messages). */
  overlapMs?: number;
  /** Never look back further than this. */
  maxLookbackMs?: number;
  /** At most this many chats per run (newest activity first). */
  maxChats?: number;
  signal?: AbortSignal;
}

/** What one run did. */
export interface BackfillReport {
  chats: number;
  seen: number;
  queued: number;
  errors: number;
}

/** Runs one backfill pass over the account's active chats. */
export async function backfill(options: BackfillOptions): Promise<BackfillReport> {
  const { api, records, intake, log } = options;
  const overlap = options.overlapMs ?? 60_000;
  const floor = options.now() - (options.maxLookbackMs ?? 7 * 24 * 3600_000);
  const report: BackfillReport = { chats: 0, seen: 0, queued: 0, errors: 0 };
  const chats = records.activeChats(api.alias).slice(0, options.maxChats ?? 50);
  for (const chat of chats) {
    if (options.signal?.aborted) break;
    report.chats++;
    let pageToken: string | undefined;
    const start = Math.max(floor, chat.latest - overlap);
    try {
      do {
        const page = await api.listMessages({
          containerIdType: "chat",
          containerId: chat.chatId,
          startTimeMs: start,
          endTimeMs: options.now(),
          pageToken,
          order: "asc",
        });
        for (const item of page.items) {
          if (!fromSomeoneElse(item, api.appId)) continue;
          report.seen++;
          const before = intake.counters.queued;
          const envelope = envelopeFromHistoryItem(item.raw, {
            chatType: chat.chatType ?? undefined,
          });
          await intake.onEvent(envelope, "backfill");
          if (intake.counters.queued > before) report.queued++;
        }
        pageToken = page.hasMore && page.pageToken ? page.pageToken : undefined;
      } while (pageToken && !options.signal?.aborted);
    } catch (err) {
      report.errors++;
      log.warn("backfill of a chat failed", {
        account: api.alias,
        chat: chat.chatId,
        error: (err as Error).message,
      });
    }
  }
  if (report.queued) log.info("backfill recovered messages", { account: api.alias, ...report });
  return report;
}

function fromSomeoneElse(m: FeishuMessage, appId: string): boolean {
  if (m.deleted) return false;
  const s = m.sender ?? {};
  return !(s.sender_type === "app" && s.id === appId);
}
