/**
 * The inbound side of every account: the intake journal, the pipeline
 * workers (with the seams later capabilities plug into), and each account's
 * long connection, whose events go straight to the intake, with gap backfill
 * on every (re)connect and a catch-up backfill once storage is writable again
 * after an intake failure (storage_watch.ts). Opened first, started once
 * everything that listens is in place: the journal may resume work from a
 * previous run at once.
 * @module
 */

import type { Account } from "../account/mod.ts";
import type { Config, LaunchOptions } from "../config/mod.ts";
import { type Deps, EVENTS_CHAT_ID } from "../core/mod.ts";
import { type Journal, journalPath, openJournal } from "../journal/mod.ts";
import type { ConversationLog } from "../conversation/mod.ts";
import {
  clearTyping,
  resumeSeen,
  resumeTyping,
  SEEN_PREFIX,
  TYPING_PREFIX,
} from "../presence/mod.ts";
import type { Store } from "../store/mod.ts";
import { backfill, type BackfillOptions, type BackfillReport } from "./backfill.ts";
import { createIntake, type Intake, type IntakeCounters } from "./intake.ts";
import { type Outage, type StorageView, StorageWatch } from "./storage_watch.ts";
import { createPipeline, type InboundSeams, type Pipeline } from "./pipeline.ts";
import { createTranscriber } from "./transcribe/mod.ts";

type BackfillOptionsOf = Omit<BackfillOptions, "api" | "records" | "intake" | "log" | "now">;

/**
 * One storage view for several accounts: the first failing one's state and
 * error, the earliest outage, the counts summed.
 *
 * @example
 * ```ts
 * import { worstStorage } from "./runtime.ts";
 * const ok = { state: "ok", since: null, last_error: null, failed_writes: 1, catch_ups: 1 } as const;
 * const full = { ...ok, state: "disk_full", since: "2026-01-01T00:00:00.000Z", last_error: "disk full: x" } as const;
 * const v = worstStorage([ok, full]);
 * if (v.state !== "disk_full" || v.failed_writes !== 2 || worstStorage([]).state !== "ok") throw new Error();
 * ```
 */
export function worstStorage(views: StorageView[]): StorageView {
  const failing = views.find((v) => v.state !== "ok");
  const since = views.map((v) => v.since).filter((s): s is string => s !== null).sort()[0];
  return {
    state: failing?.state ?? "ok",
    since: failing ? since ?? null : null,
    last_error: failing?.last_error ?? null,
    failed_writes: views.reduce((n, v) => n + v.failed_writes, 0),
    catch_ups: views.reduce((n, v) => n + v.catch_ups, 0),
  };
}

/** How far before the loss a discovered chat is read: clock skew, and a loss noticed late. */
export const DISCOVER_MARGIN_MS = 5 * 60_000;
/** How far back a DM someone opened (`p2p_entered`) still counts for discovery. */
export const ENTERED_LOOKBACK_MS = 7 * 24 * 3600_000;

/**
 * What a reconnect's backfill discovers: never-seen chats from the loss
 * (minus {@link DISCOVER_MARGIN_MS}), DMs opened within a week.
 *
 * @example
 * ```ts
 * import { discoverSince } from "./runtime.ts";
 * const d = discoverSince(1_000_000_000, 1_000_060_000);
 * if (d.sinceMs !== 1_000_000_000 - 300_000 || d.enteredSinceMs !== 1_000_060_000 - 604_800_000) throw new Error();
 * ```
 */
export function discoverSince(lostAtMs: number, nowMs: number) {
  return { sinceMs: lostAtMs - DISCOVER_MARGIN_MS, enteredSinceMs: nowMs - ENTERED_LOOKBACK_MS };
}

/** The last gap backfill of an account. */
/**
 * The report of the most recently begun backfill that ended, when it began
 * (`started_at`) and ended (`at`).
 */
export type BackfillStatus = BackfillReport & { started_at: string; at: string };

/** An opened inbound side. */
export interface InboundRuntime {
  journal: Journal;
  pipeline: Pipeline;
  /** Resumes the journal's work and opens the long connections. */
  start(): void;
  /** Per-account intake counters and the last backfill. */
  intake(alias: string): { counters: IntakeCounters; backfill: BackfillStatus | null };
  /** Whether intake can write, over every account (the worst one's state). */
  storage(): StorageView;
  close(): Promise<void>;
}

/** Options of {@link openInbound}. */
export interface InboundOptions {
  deps: Deps;
  launch: LaunchOptions;
  config: Config;
  store: Store;
  accounts: readonly Account[];
  /** Where records are written and the agent is woken. */
  conversation: ConversationLog;
  seams?: InboundSeams;
}

/** Opens the inbound side: the journal, the intakes and the pipeline, nothing running yet. */
export async function openInbound(options: InboundOptions): Promise<InboundRuntime> {
  const { deps, config, store, launch } = options;
  const { log, clock } = deps;
  const journal = await openJournal({ path: journalPath(launch.workdir), clock, log });
  const transcriber = createTranscriber(config.transcriber ?? undefined, { clock, log });
  const intakes = new Map<string, Intake>();
  const backfills = new Map<string, BackfillStatus>();
  const watches = new Map<string, StorageWatch>();
  const aborter = new AbortController();
  const runBackfill = (a: Account, extra: Partial<BackfillOptionsOf>) => {
    const started = new Date(clock.now()).toISOString();
    return backfill({
      api: a.api,
      records: store.records,
      intake: intakes.get(a.alias)!,
      log,
      now: () => clock.now(),
      signal: aborter.signal,
      ...extra,
    }).then((r) => {
      // The newest begun wins: a long first backfill ending after a reconnect's is older news.
      const shown = backfills.get(a.alias);
      if (!shown || shown.started_at <= started) {
        backfills.set(a.alias, {
          ...r,
          started_at: started,
          at: new Date(clock.now()).toISOString(),
        });
      }
      return r;
    });
  };
  for (const a of options.accounts) {
    const storage = new StorageWatch({
      clock,
      log,
      probe: () => journal.probe(),
      onRecovered: (outage) => catchUp(a, outage),
      signal: aborter.signal,
    });
    watches.set(a.alias, storage);
    intakes.set(
      a.alias,
      createIntake({
        journal,
        alias: a.alias,
        log,
        storage,
        now: () => clock.now(),
        answer: options.seams?.answerCard
          ? (envelope) => options.seams!.answerCard!({ account: a, envelope })
          : undefined,
      }),
    );
  }
  const pipeline = createPipeline({
    store,
    clock,
    log,
    workdir: launch.workdir,
    accounts: new Map(options.accounts.map((a) => [a.alias, a])),
    transcriber,
    conversation: options.conversation,
    inboundDownloadBytes: config.limits.inboundDownloadBytes,
    keepRecalled: config.privacy.keepRecalled,
    seams: options.seams,
  });
  const presenceOf = (a: Account) => ({ account: a, typing: store.typing, log });

  /** The catch-up after an outage: from the oldest message that could not be written. */
  async function catchUp(a: Account, outage: Outage): Promise<boolean> {
    const oldest = [...outage.chats.values()].map((c) => c.oldest)
      .filter((t): t is number => t !== null);
    // No message time known (passive events only): our clock at the first failure, with a margin.
    const sinceMs = oldest.length ? Math.min(...oldest) : outage.since - 60_000;
    const extraChats = [...outage.chats].map(([chatId, c]) => ({
      chatId,
      chatType: c.chatType,
      since: c.oldest ?? sinceMs,
    })).filter((c) => c.chatId !== EVENTS_CHAT_ID);
    log.info("storage writable again; catching up", {
      account: a.alias,
      since: new Date(sinceMs).toISOString(),
      chats: extraChats.length,
    });
    const report = await runBackfill(a, { sinceMs, extraChats, maxLookbackMs: 24 * 3600_000 });
    return report.errors === 0 && !aborter.signal.aborted;
  }

  return {
    journal,
    pipeline,
    start() {
      for (const a of options.accounts) {
        // Typing left over from a previous run is stale: nobody is working on it now.
        // Begun before the journal resumes, so a replayed message shows a fresh Typing.
        clearTyping(presenceOf(a)).then((n) => {
          if (n) log.info("cleared stale Typing reactions", { account: a.alias, count: n });
        });
        // A Typing whose add a previous run never saw answered may be on Feishu: removed too.
        const suspects = resumeTyping(presenceOf(a), {
          keys: store.writes.pending(a.alias, TYPING_PREFIX),
          chatOf: (id) => store.records.chatOfFeishuMessage(a.alias, id)?.chatId ?? null,
        });
        if (suspects) {
          log.info("settling Typing reactions a previous run left unanswered", { count: suspects });
        }
        resumeSeen(presenceOf(a), {
          keys: store.writes.pending(a.alias, SEEN_PREFIX),
          chatOf: (id) => store.records.chatOfFeishuMessage(a.alias, id)?.chatId ?? null,
        }).then((n) => {
          if (n) log.info("resumed OK reactions a previous run left unanswered", { count: n });
        });
      }
      journal.start(pipeline.handle);

      for (const a of options.accounts) {
        const intake = intakes.get(a.alias)!;
        // What was stored when the connection was lost, and when (our clock): the
        // reconnect's backfill starts from each chat's newest message among
        // those, and reads chats never heard from since the loss. Kept from the
        // first loss until a backfill covered it without an error.
        let storedAtLoss: number | undefined;
        let lostAtMs: number | undefined;
        let up = false;
        const gapBackfill = (lookbackMs: number, upToSeq?: number, lostAt?: number) =>
          runBackfill(a, {
            maxLookbackMs: lookbackMs,
            upToSeq,
            discover: lostAt === undefined ? undefined : discoverSince(lostAt, clock.now()),
          }).then((report) => {
            if (report.errors === 0 && storedAtLoss === upToSeq) {
              storedAtLoss = undefined;
              lostAtMs = undefined;
            }
          }).catch((err) =>
            log.warn("backfill failed", { account: a.alias, error: (err as Error).message })
          );
        a.identity.refresh().finally(() => {
          if (aborter.signal.aborted) return;
          a.connection.start({
            onEvent: (envelope) => intake.onEvent(envelope),
            onConnected: (info) => {
              // First connect: look back a day; reconnect: the downtime plus a margin.
              // Only a reconnect discovers never-seen chats: it knows when the
              // gap began, and a first connect would read every group's last day.
              gapBackfill(
                info.reconnect ? info.downtimeMs + 5 * 60_000 : 24 * 3600_000,
                info.reconnect ? storedAtLoss : undefined,
                info.reconnect ? lostAtMs : undefined,
              );
            },
            onStatus: (status) => {
              const nowUp = status.state === "connected";
              if (up && !nowUp) {
                storedAtLoss ??= store.records.lastSeq();
                lostAtMs ??= clock.now();
              }
              up = nowUp;
            },
          });
        });
      }
    },
    intake: (alias) => ({
      counters: {
        ...(intakes.get(alias)?.counters ?? { queued: 0, duplicates: 0, ignored: 0, failed: 0 }),
      },
      backfill: backfills.get(alias) ?? null,
    }),
    storage: () => worstStorage([...watches.values()].map((w) => w.view())),
    async close() {
      aborter.abort();
      for (const w of watches.values()) await w.settled();
      for (const a of options.accounts) await a.connection.close();
      await journal.close();
      await transcriber.close();
      for (const a of options.accounts) await clearTyping(presenceOf(a));
    },
  };
}
