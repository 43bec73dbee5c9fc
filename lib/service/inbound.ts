/**
 * Wires the inbound side for every account: the intake journal, the
 * pipeline workers, the bot identity, the long connection (whose events go
 * straight to the intake) and gap backfill on every (re)connect.
 * @module
 */

import type { Config, LaunchOptions } from "../config/mod.ts";
import type { Deps } from "../core/mod.ts";
import { type LongConnectionStatus, startLongConnection } from "../feishu/mod.ts";
import {
  backfill,
  createIntake,
  createNameResolver,
  createPipeline,
  type Intake,
  type Pipeline,
  type PipelineAccount,
  refreshIdentity,
} from "../inbound/mod.ts";
import { createTranscriber, type Transcriber } from "../inbound/transcribe/mod.ts";
import { type Journal, journalPath, type JournalStats, openJournal } from "../journal/mod.ts";
import { createNotifier, liccInboxDir, type Notifier, type PushTarget } from "../notify/mod.ts";
import { clearTyping } from "../presence/mod.ts";
import type { Store } from "../store/mod.ts";
import type { AccountRuntime } from "../actions/mod.ts";

/** A running inbound side. */
export interface InboundRuntime {
  journal: Journal;
  pipeline: Pipeline;
  notifier: Notifier;
  transcriber: Transcriber;
  /** Per-account status facts. */
  status(
    alias: string,
  ): { connection: Record<string, unknown>; intake: Record<string, number>; backfill: unknown };
  close(): Promise<void>;
}

/** Options of {@link startInbound}. */
export interface InboundOptions {
  deps: Deps;
  launch: LaunchOptions;
  config: Config;
  store: Store;
  accounts: AccountRuntime[];
  push: () => PushTarget | null;
  /** Start the long connections (off for tests that drive the intake directly). */
  connect?: boolean;
}

/** Starts the inbound side. */
export async function startInbound(options: InboundOptions): Promise<InboundRuntime> {
  const { deps, config, store, launch } = options;
  const { log, clock } = deps;
  const journal = await openJournal({ path: journalPath(launch.workdir), clock, log });
  const transcriber = createTranscriber(config.transcriber ?? undefined, { clock, log });
  const notifier = createNotifier({
    liccDir: config.notify.licc ? liccInboxDir(launch.workdir, launch.mcpName) : null,
    claudeChannel: config.notify.claudeChannel,
    push: options.push,
    clock,
    log,
  });
  const secrets = new Map(config.accounts.map((a) => [a.alias, a]));
  const pipelineAccounts = new Map<string, PipelineAccount>();
  const intakes = new Map<string, Intake>();
  const botIds = new Map<string, string | null>();
  const refreshers = new Map<string, () => Promise<string | null>>();
  const backfills = new Map<string, unknown>();
  for (const a of options.accounts) {
    // Read on every message (admission, normalisation): kept in memory, from the
    // store's cache at start and from each identity refresh.
    botIds.set(a.alias, store.identities.get(a.alias)?.botOpenId ?? null);
    const botOpenId = () => botIds.get(a.alias) ?? null;
    let lastLookup = Number.NEGATIVE_INFINITY;
    // One lookup path for start-up and for held group messages, at most every 30 s.
    const refresh = async () => {
      lastLookup = clock.now();
      const id = await refreshIdentity({ api: a.api, identities: store.identities, clock, log });
      if (id?.botOpenId) botIds.set(a.alias, id.botOpenId);
      return botOpenId();
    };
    refreshers.set(a.alias, refresh);
    const ensureIdentity = () =>
      botOpenId() || clock.now() - lastLookup < 30_000 ? Promise.resolve(botOpenId()) : refresh();
    pipelineAccounts.set(a.alias, {
      alias: a.alias,
      appId: a.appId,
      allowedUsers: a.allowedUsers,
      api: a.api,
      botOpenId,
      ensureIdentity,
      names: createNameResolver({
        contactName: (id) => store.contacts.displayName(a.alias, id),
        lookup: (id) => a.api.userName(id),
        log,
      }),
    });
    intakes.set(a.alias, createIntake({ journal, alias: a.alias, log, now: () => clock.now() }));
  }
  const pipeline = createPipeline({
    store,
    clock,
    log,
    workdir: launch.workdir,
    accounts: pipelineAccounts,
    transcriber,
    notifier,
  });
  journal.start(pipeline.handle);

  const connections = new Map<string, ReturnType<typeof startLongConnection>>();
  const aborter = new AbortController();
  for (const a of options.accounts) {
    const presence = { api: a.api, typing: store.typing, log };
    // Typing left over from a previous run is stale: nobody is working on it now.
    clearTyping(presence, a.alias).then((n) => {
      if (n) log.info("cleared stale Typing reactions", { account: a.alias, count: n });
    });
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
        (err) => log.warn("backfill failed", { account: a.alias, error: (err as Error).message }),
      );
    if (options.connect === false) continue;
    const secret = secrets.get(a.alias)!;
    refreshers.get(a.alias)!().finally(() => {
      if (aborter.signal.aborted) return;
      connections.set(
        a.alias,
        startLongConnection({
          alias: a.alias,
          appId: a.appId,
          appSecret: secret.appSecret,
          baseUrl: secret.baseUrl,
          log,
          clock,
          onEvent: (envelope) => intake.onEvent(envelope as never),
          onConnected: (info) => {
            // First connect: look back a day; reconnect: the downtime plus a margin.
            runBackfill(info.reconnect ? info.downtimeMs + 5 * 60_000 : 24 * 3600_000);
          },
        }),
      );
    });
  }

  return {
    journal,
    pipeline,
    notifier,
    transcriber,
    status(alias) {
      const conn = connections.get(alias);
      const intake = intakes.get(alias);
      return {
        connection: conn
          ? connectionStatus(conn.status())
          : { state: options.connect === false ? "disabled" : "starting" },
        intake: intake ? { ...intake.counters } : {},
        backfill: backfills.get(alias) ?? null,
      };
    },
    async close() {
      aborter.abort();
      for (const c of connections.values()) await c.close();
      await journal.close();
      await transcriber.close();
      for (const a of options.accounts) {
        await clearTyping({ api: a.api, typing: store.typing, log }, a.alias);
      }
    },
  };
}

/**
 * The long connection's status as the status resource shows it: snake_case
 * keys like the rest of the resource, times as ISO strings (null when never).
 *
 * @example
 * ```ts
 * import { connectionStatus } from "./inbound.ts";
 * import assert from "node:assert/strict";
 * const s = connectionStatus({
 *   state: "connected", since: 0, lastFrameAt: 1000, lastEventAt: null, lastPingAt: null,
 *   connects: 2, reconnects: 1, lastError: null, endpointHost: "h:1", proxy: null, nextRetryAt: null,
 * });
 * assert.equal(s.last_frame_at, "1970-01-01T00:00:01.000Z");
 * assert.equal(s.last_event_at, null);
 * assert.equal(s.reconnects, 1);
 * ```
 */
export function connectionStatus(s: LongConnectionStatus): Record<string, unknown> {
  const iso = (ms: number | null) => ms === null ? null : new Date(ms).toISOString();
  return {
    state: s.state,
    since: iso(s.since),
    last_frame_at: iso(s.lastFrameAt),
    last_event_at: iso(s.lastEventAt),
    last_ping_at: iso(s.lastPingAt),
    connects: s.connects,
    reconnects: s.reconnects,
    last_error: s.lastError,
    endpoint_host: s.endpointHost,
    proxy: s.proxy,
    next_retry_at: iso(s.nextRetryAt),
  };
}

/**
 * The journal's snapshot as the status resource shows it (snake_case keys).
 *
 * @example
 * ```ts
 * import { journalStatus } from "./inbound.ts";
 * import assert from "node:assert/strict";
 * const s = journalStatus({
 *   fifo: [{ account: "main", chatKey: "oc_1", depth: 2 }], pending: 2, inFlight: 1, deadLetters: 0,
 *   admitted: 5, duplicates: 1, processed: 3, failures: 0, faults: 0, doorbells: 5,
 * });
 * assert.deepEqual(s.fifo, [{ account: "main", chat: "oc_1", depth: 2 }]);
 * assert.equal(s.in_flight, 1);
 * ```
 */
export function journalStatus(s: JournalStats): Record<string, unknown> {
  return {
    pending: s.pending,
    in_flight: s.inFlight,
    dead_letters: s.deadLetters,
    admitted: s.admitted,
    duplicates: s.duplicates,
    processed: s.processed,
    failures: s.failures,
    faults: s.faults,
    doorbells: s.doorbells,
    fifo: s.fifo.map((c) => ({ account: c.account, chat: c.chatKey, depth: c.depth })),
  };
}
