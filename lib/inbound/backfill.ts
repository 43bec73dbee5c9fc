/**
 * Gap backfill: after a reconnect or a stall, list each active chat's history
 * since its newest stored incoming message — the chat's main flow, then the
 * topics (threads) seen there or recently active, whose replies the main flow
 * does not list — and feed unseen messages through the same intake (same
 * dedupe keys), flagged as backfilled. Nothing is admitted twice; nothing
 * that arrived while we were away is lost.
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
  /** At most this many topics per chat (most recently active first). */
  maxThreads?: number;
  signal?: AbortSignal;
}

/** What one run did. */
export interface BackfillReport {
  chats: number;
  /** Topics listed (thread containers). */
  threads: number;
  seen: number;
  queued: number;
  errors: number;
}

interface ChatScope {
  chatId: string;
  chatType: string | null;
  /** Messages created before this (ms) are not looked at. */
  since: number;
}

/** Runs one backfill pass over the account's active chats. */
export async function backfill(options: BackfillOptions): Promise<BackfillReport> {
  const { api, records, log } = options;
  const overlap = options.overlapMs ?? 60_000;
  const floor = options.now() - (options.maxLookbackMs ?? 7 * 24 * 3600_000);
  const report: BackfillReport = { chats: 0, threads: 0, seen: 0, queued: 0, errors: 0 };
  const chats = records.activeChats(api.alias).slice(0, options.maxChats ?? 50);
  for (const chat of chats) {
    if (options.signal?.aborted) break;
    report.chats++;
    const scope = { ...chat, since: Math.max(floor, chat.latest - overlap) };
    const threads = new Set(
      records.activeThreads(api.alias, chat.chatId, floor, options.maxThreads ?? 20),
    );
    try {
      await listChat(scope, threads, options, report);
      for (const thread of [...threads].slice(0, options.maxThreads ?? 20)) {
        if (options.signal?.aborted) break;
        report.threads++;
        await listThread(scope, thread, options, report);
      }
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

/** The chat's main flow since `scope.since`; topic roots add their thread. */
async function listChat(
  scope: ChatScope,
  threads: Set<string>,
  options: BackfillOptions,
  report: BackfillReport,
): Promise<void> {
  let pageToken: string | undefined;
  do {
    // No end time: Feishu's clock may run ahead of ours, and a cut at our "now"
    // would skip the newest messages. The start is on Feishu's clock already
    // (the newest stored create_time, minus the overlap).
    const page = await options.api.listMessages({
      containerIdType: "chat",
      containerId: scope.chatId,
      startTimeMs: scope.since,
      pageToken,
      order: "asc",
    });
    for (const item of page.items) {
      if (item.threadId) threads.add(item.threadId);
      await ingest(item, scope, options, report);
    }
    pageToken = page.hasMore && page.pageToken ? page.pageToken : undefined;
  } while (pageToken && !options.signal?.aborted);
}

/**
 * One topic, newest first, until a page reaches messages older than
 * `scope.since` (no time range: Feishu's thread container may not honour one).
 */
async function listThread(
  scope: ChatScope,
  threadId: string,
  options: BackfillOptions,
  report: BackfillReport,
): Promise<void> {
  let pageToken: string | undefined;
  const fresh: FeishuMessage[] = [];
  do {
    const page = await options.api.listMessages({
      containerIdType: "thread",
      containerId: threadId,
      pageToken,
      order: "desc",
    });
    const recent = page.items.filter((m) => (m.createTime ?? 0) >= scope.since);
    fresh.push(...recent);
    const reachedOld = recent.length < page.items.length;
    pageToken = page.hasMore && page.pageToken && !reachedOld ? page.pageToken : undefined;
  } while (pageToken && !options.signal?.aborted);
  // Oldest first, as the chat's own FIFO expects.
  for (const item of fresh.reverse()) await ingest(item, scope, options, report);
}

async function ingest(
  item: FeishuMessage,
  scope: ChatScope,
  options: BackfillOptions,
  report: BackfillReport,
): Promise<void> {
  if (!fromSomeoneElse(item, options.api.appId)) return;
  report.seen++;
  const envelope = envelopeFromHistoryItem(item.raw, { chatType: scope.chatType ?? undefined });
  if (await options.intake.admit(envelope, "backfill") === "queued") report.queued++;
}

function fromSomeoneElse(m: FeishuMessage, appId: string): boolean {
  if (m.deleted) return false;
  const s = m.sender ?? {};
  return !(s.sender_type === "app" && s.id === appId);
}
