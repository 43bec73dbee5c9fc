/**
 * The inbound side of every account: the intake journal, the pipeline
 * workers (with the seams later capabilities plug into), and each account's
 * long connection, whose events go straight to the intake, with gap backfill
 * on every (re)connect. Opened first, started once everything that listens
 * is in place: the journal may resume work from a previous run at once.
 * @module
 */

import type { Account } from "../account/mod.ts";
import type { Config, LaunchOptions } from "../config/mod.ts";
import type { Deps } from "../core/mod.ts";
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
import { backfill, type BackfillReport } from "./backfill.ts";
import { createIntake, type Intake, type IntakeCounters } from "./intake.ts";
import { createPipeline, type InboundSeams, type Pipeline } from "./pipeline.ts";
import { createTranscriber } from "./transcribe/mod.ts";

/** The last gap backfill of an account. */
export type BackfillStatus = BackfillReport & { at: string };

/** An opened inbound side. */
export interface InboundRuntime {
  journal: Journal;
  pipeline: Pipeline;
  /** Resumes the journal's work and opens the long connections. */
  start(): void;
  /** Per-account intake counters and the last backfill. */
  intake(alias: string): { counters: IntakeCounters; backfill: BackfillStatus | null };
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
  for (const a of options.accounts) {
    intakes.set(
      a.alias,
      createIntake({
        journal,
        alias: a.alias,
        log,
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
    seams: options.seams,
  });
  const presenceOf = (a: Account) => ({ account: a, typing: store.typing, log });
  const aborter = new AbortController();

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
        const runBackfill = (lookbackMs: number) =>
          backfill({
            api: a.api,
            records: store.records,
            intake,
            log,
            now: () => clock.now(),
            maxLookbackMs: lookbackMs,
            signal: aborter.signal,
          }).then(
            (r) => backfills.set(a.alias, { ...r, at: new Date(clock.now()).toISOString() }),
            (err) =>
              log.warn("backfill failed", { account: a.alias, error: (err as Error).message }),
          );
        a.identity.refresh().finally(() => {
          if (aborter.signal.aborted) return;
          a.connection.start({
            onEvent: (envelope) => intake.onEvent(envelope),
            onConnected: (info) => {
              // First connect: look back a day; reconnect: the downtime plus a margin.
              runBackfill(info.reconnect ? info.downtimeMs + 5 * 60_000 : 24 * 3600_000);
            },
          });
        });
      }
    },
    intake: (alias) => ({
      counters: { ...(intakes.get(alias)?.counters ?? { queued: 0, duplicates: 0, ignored: 0 }) },
      backfill: backfills.get(alias) ?? null,
    }),
    async close() {
      aborter.abort();
      for (const a of options.accounts) await a.connection.close();
      await journal.close();
      await transcriber.close();
      for (const a of options.accounts) await clearTyping(presenceOf(a));
    },
  };
}
