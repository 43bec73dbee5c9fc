/**
 * Gap backfill: after a reconnect or a stall, list each active chat's history
 * since its newest stored incoming message — the chat's main flow, then the
 * topics (threads) seen there or recently active, whose replies the main flow
 * does not list — and feed unseen messages through the same intake (same
 * dedupe keys), flagged as backfilled. Nothing is admitted twice; nothing
 * that arrived while we were away is lost.
 *
 * Only the gap is read: the main flow from the second of the chat's newest
 * message stored before the connection was lost (Feishu's `start_time` is in seconds, so that second is
 * re-read and nothing in it is skipped), a topic newest first until its first
 * message already stored. Bounded: `maxChats` per run, `maxPages` per chat
 * (a chat cut short counts in `truncated`). A catch-up after a storage outage
 * passes `sinceMs` (reach back at least to the oldest message that could not
 * be written) and `extraChats` (chats of failed events the store has never
 * seen). A reconnect's backfill passes `discover`: chats the store never
 * heard from (discover.ts) are read too, from the outage's start, after the
 * known ones (`discovered` counts them).
 * @module
 */

import type { Logger } from "../core/mod.ts";
import type { FeishuApi, FeishuMessage } from "../feishu/mod.ts";
import type { RecordStore } from "../store/mod.ts";
import { discoverChats, type DiscoverOptions } from "./discover.ts";
import type { Intake } from "./intake.ts";
import { envelopeFromHistoryItem } from "./normalise/mod.ts";

/** Options of {@link backfill}. */
export interface BackfillOptions {
  api: FeishuApi;
  records: RecordStore;
  intake: Intake;
  log: Logger;
  now: () => number;
  /**
   * Count only records that arrived up to this store sequence when finding a
   * chat's newest stored message: what was stored before the connection was
   * lost. Events Feishu re-pushes at the reconnect are stored meanwhile and
   * may be newer than a message it gave up on during the outage; starting
   * from them would skip that message.
   */
  upToSeq?: number;
  /** Look back this far before the newest stored message (default 0: its second is re-read anyway). */
  overlapMs?: number;
  /** Reach back at least to this Feishu time (ms) in every chat (a catch-up after an outage). */
  sinceMs?: number;
  /** Chats to cover besides the store's active ones, from `since` (ms). */
  extraChats?: { chatId: string; chatType: string | null; since: number }[];
  /**
   * Also read chats the store never heard from up to `upToSeq`, from
   * `sinceMs` (the outage's start, with a margin); see discover.ts.
   */
  discover?:
    & { sinceMs: number }
    & Pick<
      DiscoverOptions,
      "enteredSinceMs" | "maxChats" | "maxPages"
    >;
  /** At most this many pages (50 messages) of one chat's main flow or topic (default 20). */
  maxPages?: number;
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
  /** Chats or topics whose listing stopped at `maxPages` with more to read. */
  truncated: number;
  /** Chats the store never heard from, found and read (see `discover`). */
  discovered: number;
}

/** Default bound of pages per chat main flow or topic (50 messages each). */
export const DEFAULT_MAX_PAGES = 20;

interface ChatScope {
  chatId: string;
  chatType: string | null;
  /** Messages created before this (ms) are not looked at. */
  since: number;
}

/** Runs one backfill pass over the account's active chats. */
export async function backfill(options: BackfillOptions): Promise<BackfillReport> {
  const { api, records, log } = options;
  const overlap = options.overlapMs ?? 0;
  const floor = options.now() - (options.maxLookbackMs ?? 7 * 24 * 3600_000);
  const report: BackfillReport = {
    chats: 0,
    threads: 0,
    seen: 0,
    queued: 0,
    errors: 0,
    truncated: 0,
    discovered: 0,
  };
  const reach = options.sinceMs ?? Infinity;
  const scopes = new Map<string, ChatScope>();
  for (
    const chat of records.activeChats(api.alias, {
      upToSeq: options.upToSeq,
      limit: options.maxChats ?? 50,
    })
  ) {
    const since = Math.max(floor, Math.min(chat.latest - overlap, reach));
    scopes.set(chat.chatId, { chatId: chat.chatId, chatType: chat.chatType, since });
  }
  for (const extra of options.extraChats ?? []) {
    const known = scopes.get(extra.chatId);
    const since = Math.max(floor, Math.min(known?.since ?? Infinity, extra.since));
    scopes.set(extra.chatId, { ...extra, chatType: known?.chatType ?? extra.chatType, since });
  }
  // Catch-up chats first (they lost events for sure), then by newest activity.
  const extras = new Set((options.extraChats ?? []).map((c) => c.chatId));
  const ordered = [...scopes.values()].sort((a, b) =>
    Number(extras.has(b.chatId)) - Number(extras.has(a.chatId))
  );
  const chosen = ordered.slice(0, options.maxChats ?? 50);
  if (options.discover) {
    for (const chat of await discover(options, options.discover, report)) {
      if (scopes.has(chat.chatId)) continue;
      report.discovered++;
      // From the first loss even when this reconnect's downtime (`maxLookbackMs`)
      // is shorter: an earlier reconnect's backfill may have failed.
      chosen.push({ ...chat, since: options.discover.sinceMs });
    }
  }
  for (const scope of chosen) {
    if (options.signal?.aborted) break;
    report.chats++;
    const threads = new Set(
      records.activeThreads(api.alias, scope.chatId, floor, options.maxThreads ?? 20),
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
        chat: scope.chatId,
        error: (err as Error).message,
      });
    }
  }
  if (report.queued) log.info("backfill recovered messages", { account: api.alias, ...report });
  return report;
}

/** The chats to discover; none (an error counted) when the group list cannot be read. */
async function discover(
  options: BackfillOptions,
  what: NonNullable<BackfillOptions["discover"]>,
  report: BackfillReport,
) {
  try {
    const { api, records, upToSeq, signal } = options;
    return await discoverChats({ api, records, upToSeq, signal, ...what });
  } catch (err) {
    report.errors++;
    options.log.warn("backfill could not list the bot's chats", {
      account: options.api.alias,
      error: (err as Error).message,
    });
    return [];
  }
}

/** The chat's main flow since `scope.since`; topic roots add their thread. */
async function listChat(
  scope: ChatScope,
  threads: Set<string>,
  options: BackfillOptions,
  report: BackfillReport,
): Promise<void> {
  let pageToken: string | undefined;
  let pages = 0;
  do {
    if (pages++ >= (options.maxPages ?? DEFAULT_MAX_PAGES)) {
      report.truncated++;
      options.log.warn("backfill of a chat stopped at its page bound", {
        account: options.api.alias,
        chat: scope.chatId,
        pages: pages - 1,
      });
      return;
    }
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
 * One topic, newest first, until its first message already stored or older
 * than `scope.since` (no time range: Feishu's thread container may not
 * honour one).
 */
async function listThread(
  scope: ChatScope,
  threadId: string,
  options: BackfillOptions,
  report: BackfillReport,
): Promise<void> {
  let pageToken: string | undefined;
  const fresh: FeishuMessage[] = [];
  let pages = 0;
  do {
    if (pages++ >= (options.maxPages ?? DEFAULT_MAX_PAGES)) {
      report.truncated++;
      break;
    }
    const page = await options.api.listMessages({
      containerIdType: "thread",
      containerId: threadId,
      pageToken,
      order: "desc",
    });
    const stop = page.items.findIndex((m) =>
      (m.createTime ?? 0) < scope.since || stored(m, options)
    );
    fresh.push(...(stop < 0 ? page.items : page.items.slice(0, stop)));
    pageToken = page.hasMore && page.pageToken && stop < 0 ? page.pageToken : undefined;
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

/** True when the store already holds this message (ours or someone else's). */
function stored(m: FeishuMessage, options: BackfillOptions): boolean {
  const id = m.messageId;
  return typeof id === "string" && id !== "" &&
    options.records.chatOfFeishuMessage(options.api.alias, id) !== null;
}

function fromSomeoneElse(m: FeishuMessage, appId: string): boolean {
  if (m.deleted) return false;
  const s = m.sender ?? {};
  return !(s.sender_type === "app" && s.id === appId);
}
