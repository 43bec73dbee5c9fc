/**
 * The service's status as typed data: config readability, confinement, and
 * per account the long connection, the tenant token's auth state, the bot
 * identity, admission, intake and
 * card-callback counters, the last backfill and the pending Typing
 * reactions; whether intake can write (`storage`); the journal (with its dedupe keys and dead-letter reasons),
 * notification and permission-relay counters; the month's API calls against
 * the quota.
 * The `lingtai://status` resource renders it as JSON (snake_case keys, ISO
 * times); `/status` and `doctor` read the same object. Never throws, never
 * contains a secret.
 * @module
 */

import type { Account } from "../account/mod.ts";
import type { CallbackCounters } from "../callbacks/mod.ts";
import { type AuthStatus, authSummary, type LongConnectionStatus } from "../feishu/mod.ts";
import type {
  BackfillStatus,
  InboundRuntime,
  PipelineCounters,
  StorageView,
} from "../inbound/mod.ts";
import type { IntakeCounters } from "../inbound/mod.ts";
import type { JournalStats } from "../journal/mod.ts";
import type { NotifierCounters } from "../notify/mod.ts";
import { presenceStatus } from "../presence/mod.ts";
import type { QuotaView } from "../quota/mod.ts";
import { readTypingPending, type Store } from "../store/mod.ts";
import type { TaskCardStatus } from "../taskcard/mod.ts";
import type { Confinement } from "./confinement.ts";
import type { JournalFigures } from "./ops.ts";

/** The long connection as the status shows it. */
export interface ConnectionView {
  state: string;
  since?: string | null;
  last_frame_at?: string | null;
  last_event_at?: string | null;
  last_ping_at?: string | null;
  connects?: number;
  reconnects?: number;
  last_error?: string | null;
  endpoint_host?: string | null;
  proxy?: string | null;
  next_retry_at?: string | null;
}

/** The tenant token as the status shows it (`lib/feishu/token_guard.ts`). */
export interface AuthView {
  /** `ok`, `token_rejected` (a fresh token was refused too) or `token_request_failed`. */
  state: AuthStatus["state"];
  /** Tokens dropped after Feishu refused them (each fetched anew). */
  refreshes: number;
  last_refresh_at: string | null;
  /** When the failed state began, while it lasts. */
  failed_at: string | null;
  last_error: string | null;
  /** `auth: token rejected at …` while failed, else null. */
  summary: string | null;
}

/** The bot identity as the status shows it. */
export interface IdentityView {
  bot_name: string | null;
  bot_open_id_known: boolean;
  source: string | null;
  last_verified_at: string | null;
}

/** One account's status. */
export interface AccountStatus {
  alias: string;
  app_id: string;
  has_app_id: boolean;
  has_app_secret: boolean;
  allowed_users_count: number | null;
  /** Open ids that may control the agent (0: its allowed users do, or nobody when none). */
  owners_count: number;
  /** The account's access rules (`access.dm`, `access.outbound`, `access.bots`) and how many people are admitted. */
  access: { dm: string; outbound: string; bots: string; admitted_count: number };
  connection: ConnectionView;
  /** The tenant token's state (absent for clients that do not report it). */
  auth?: AuthView;
  identity: IdentityView | null;
  admission: PipelineCounters | Record<string, never>;
  intake?: IntakeCounters;
  backfill?: BackfillStatus | null;
  /**
   * Card clicks: recorded business clicks, control clicks, approval votes,
   * refused, malformed, throttled (recorded without a wake), misplaced,
   * unreadable.
   */
  card_callbacks?: CallbackCounters;
  /** Typing reactions placed and not yet removed. */
  typing_pending?: number;
  /** Chats dissolved or left by the bot: writes there fail fast with `TARGET_REVOKED`. */
  gone_chats?: number;
  /** Presence writes waiting in the outbox now, and those skipped to keep that backlog short. */
  presence?: { queued: number; shed: number };
}

/** The permission relay for Claude Code channels. */
export interface PermissionView {
  enabled: boolean;
  requests: number;
  cards: number;
  verdicts: number;
  refused: number;
  undelivered: number;
}

/** The journal as the status shows it, with the figures a KV scan gives when read. */
export type JournalView = ReturnType<typeof journalView> & Partial<JournalFigures>;

/** The MCP side: the connected client's era and which tool schema it was shown. */
export interface McpView {
  /** `modern` (2026-07-28) or `legacy` (`initialize`); null before the opening exchange. */
  era: "modern" | "legacy" | null;
  client_name: string | null;
  /** The config's `tool_schema` as last read. */
  tool_schema: string | null;
  /** The projection the last `tools/list` published (`ltp` or `portable`). */
  tool_projection: string | null;
}

/** The whole status. */
export interface ServiceStatus {
  status: "ok" | "degraded";
  manager_initialized: boolean;
  service_started: boolean;
  config_path_set: boolean;
  config_path: string | null;
  config_readable: boolean;
  accounts_count: number;
  accounts: AccountStatus[];
  permissions: Confinement;
  /** Whether intake can write: `ok`, or `disk_full` / `read_only` / `error` since when. */
  storage?: StorageView;
  journal?: JournalView;
  notifications?: NotifierCounters;
  mcp?: McpView;
  permission_relay?: PermissionView;
  /** Resident Task Cards: preference, journal, routes, blocked bindings, writes. */
  task_cards?: TaskCardStatus;
  /** This month's Feishu API calls against `quota.monthly_calls`. */
  quota?: QuotaView;
  notes: string[];
}

/** What the status is built from. */
export interface StatusSources {
  configPath: string | null;
  configReadable: boolean;
  configErrors: readonly string[];
  /** Configured accounts (empty when the config was refused). */
  accounts: readonly Account[];
  store: Store | null;
  inbound: InboundRuntime | null;
  permissions: Confinement;
  /** Start-up problems other than the config's. */
  notes: readonly string[];
  /** The MCP side, when a server serves this service. */
  mcp?: () => McpView;
  /** Notifications written or pushed, when a service runs. */
  notifier?: NotifierCounters;
  /** Card callback counters per account. */
  callbacks?: (alias: string) => CallbackCounters;
  /** The permission relay's counters, when it runs. */
  permission?: () => PermissionView;
  /** The Task Cards' state, when they run. */
  taskCards?: () => TaskCardStatus;
  /** The month's API usage, when counted. */
  quota?: () => QuotaView;
  /** Dedupe keys and dead-letter reasons, once read. */
  journalFigures?: () => JournalFigures | null;
  /** The start-up recovery of sends a crash cut off, when a service runs. */
  sendRecovery?: () => SendRecoveryView;
}

/** Where the start-up recovery of cut-off sends stands, and what it decided. */
export interface SendRecoveryView {
  /** True until every intent a crash left open is settled. */
  running: boolean;
  finish: number;
  partial: number;
  close: number;
  drop: number;
  /** Why it stopped early, if it did. */
  error: string | null;
}

const iso = (ms: number | null) => ms === null ? null : new Date(ms).toISOString();

/**
 * The long connection's status in the status's shape.
 *
 * @example
 * ```ts
 * import { connectionView } from "./status.ts";
 * import assert from "node:assert/strict";
 * const s = connectionView({
 *   state: "connected", since: 0, lastFrameAt: 1000, lastEventAt: null, lastPingAt: null,
 *   connects: 2, reconnects: 1, lastError: null, endpointHost: "h:1", proxy: null, nextRetryAt: null,
 * });
 * assert.equal(s.last_frame_at, "1970-01-01T00:00:01.000Z");
 * assert.equal(s.last_event_at, null);
 * assert.equal(s.reconnects, 1);
 * ```
 */
export function connectionView(s: LongConnectionStatus): ConnectionView {
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
 * The auth state in the status's shape.
 *
 * @example
 * ```ts
 * import { authView } from "./status.ts";
 * import assert from "node:assert/strict";
 * const v = authView({ state: "token_rejected", refreshes: 2, lastRefreshAt: 0, failedAt: 0, lastError: "code=99991663" });
 * assert.equal(v.summary, "auth: token rejected at 1970-01-01T00:00:00.000Z (code=99991663)");
 * ```
 */
export function authView(s: AuthStatus): AuthView {
  return {
    state: s.state,
    refreshes: s.refreshes,
    last_refresh_at: iso(s.lastRefreshAt),
    failed_at: iso(s.failedAt),
    last_error: s.lastError,
    summary: authSummary(s),
  };
}

/**
 * The journal's snapshot in the status's shape.
 *
 * @example
 * ```ts
 * import { journalView } from "./status.ts";
 * import assert from "node:assert/strict";
 * const s = journalView({
 *   fifo: [{ account: "main", chatKey: "oc_1", depth: 2 }], pending: 2, inFlight: 1, waiting: 0,
 *   deadLetters: 0, admitted: 5, duplicates: 1, processed: 3, failures: 0, faults: 0,
 * });
 * assert.deepEqual(s.fifo, [{ account: "main", chat: "oc_1", depth: 2 }]);
 * assert.equal(s.in_flight, 1);
 * assert.equal(s.waiting, 0);
 * ```
 */
export function journalView(s: JournalStats) {
  return {
    pending: s.pending,
    in_flight: s.inFlight,
    waiting: s.waiting,
    dead_letters: s.deadLetters,
    admitted: s.admitted,
    duplicates: s.duplicates,
    processed: s.processed,
    failures: s.failures,
    faults: s.faults,
    fifo: s.fifo.map((c) => ({ account: c.account, chat: c.chatKey, depth: c.depth })),
  };
}

function accountStatus(
  a: Account,
  src: StatusSources,
  typing: ReadonlyMap<string, number>,
): AccountStatus {
  const id = src.store?.identities.get(a.alias) ?? null;
  const conn = a.connection.status();
  const intake = src.inbound?.intake(a.alias);
  const auth = a.api.auth?.();
  return {
    alias: a.alias,
    app_id: a.appId,
    has_app_id: a.appId !== "",
    has_app_secret: true,
    allowed_users_count: a.allowedUsers ? a.allowedUsers.length : null,
    owners_count: a.owners.length,
    access: {
      dm: a.access.dm,
      outbound: a.access.outbound,
      bots: a.access.bots ?? "mention",
      admitted_count: a.admittedIds().length,
    },
    connection: conn ? connectionView(conn) : { state: src.inbound ? "starting" : "not_started" },
    ...(auth ? { auth: authView(auth) } : {}),
    identity: id
      ? {
        bot_name: id.botName,
        bot_open_id_known: id.botOpenId !== null,
        source: id.source,
        last_verified_at: iso(id.lastVerifiedAt),
      }
      : null,
    admission: src.inbound ? src.inbound.pipeline.counters(a.alias) : {},
    ...(intake ? { intake: intake.counters, backfill: intake.backfill } : {}),
    ...(src.callbacks ? { card_callbacks: src.callbacks(a.alias) } : {}),
    ...(src.store ? { typing_pending: typing.get(a.alias) ?? 0 } : {}),
    ...(src.store ? { gone_chats: src.store.goneChats.count(a.alias) } : {}),
    ...(src.inbound ? { presence: presenceStatus(a) } : {}),
  };
}

/** Pending Typing reactions per account; empty when the store cannot say. */
function typingPending(store: Store | null): Map<string, number> {
  try {
    return new Map(store ? readTypingPending(store.db).map((r) => [r.account, r.count]) : []);
  } catch {
    return new Map();
  }
}

/**
 * Builds the status.
 *
 * @example Degraded without a config
 * ```ts
 * import { buildStatus } from "./status.ts";
 * const permissions = {
 *   confined: false, read_outside_workdir: true, write_outside_workdir: true, write_workdir: true,
 *   net_any_host: true, run_any_program: true,
 * };
 * const s = buildStatus({
 *   configPath: null, configReadable: false, configErrors: [], accounts: [], store: null,
 *   inbound: null, permissions, notes: [],
 * });
 * if (s.status !== "degraded" || s.config_path_set !== false) throw new Error();
 * ```
 */
export function buildStatus(src: StatusSources): ServiceStatus {
  const started = src.store !== null;
  const notes = [...src.notes];
  if (src.configPath === null) {
    notes.push("No config file named (--config, FEISHU_MCP_CONFIG or LINGTAI_FEISHU_CONFIG).");
  }
  notes.push(...src.configErrors);
  for (const a of src.accounts) {
    const auth = a.api.auth?.();
    const summary = auth ? authSummary(auth) : null;
    if (summary) notes.push(`account ${a.alias}: ${summary}`);
  }
  const typing = typingPending(src.store);
  const storage = src.inbound?.storage();
  return {
    status: started && (!storage || storage.state === "ok") ? "ok" : "degraded",
    manager_initialized: started,
    service_started: started,
    config_path_set: src.configPath !== null,
    config_path: src.configPath,
    config_readable: src.configReadable,
    accounts_count: src.accounts.length,
    accounts: src.accounts.map((a) => accountStatus(a, src, typing)),
    permissions: src.permissions,
    ...(storage ? { storage } : {}),
    ...(src.inbound
      ? {
        journal: { ...journalView(src.inbound.journal.stats()), ...src.journalFigures?.() },
        ...(src.notifier ? { notifications: { ...src.notifier } } : {}),
      }
      : {}),
    ...(src.mcp ? { mcp: src.mcp() } : {}),
    ...(src.permission ? { permission_relay: src.permission() } : {}),
    ...(src.taskCards ? { task_cards: src.taskCards() } : {}),
    ...(src.sendRecovery ? { send_recovery: src.sendRecovery() } : {}),
    ...(src.quota ? { quota: src.quota() } : {}),
    notes,
  };
}
