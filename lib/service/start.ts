/**
 * The composition root of `serve`, in the order data flows: config → store →
 * the quota meter → accounts (each with its api, counted, and outbox) → the
 * shared outbound runtime →
 * inbound (journal, pipeline with the seams for local commands, card
 * callbacks and Task Cards, long connections) → the MCP app. Any failure
 * short of the lock leaves a degraded server that still answers `manual`.
 * @module
 */

import { join } from "node:path";
import { type Account, createAccount } from "../account/mod.ts";
import {
  accountDetails,
  type ActionContext,
  createOutboundRuntime,
  dispatch,
  manualResult,
} from "../actions/mod.ts";
import { type Config, type LaunchOptions, loadConfig } from "../config/mod.ts";
import { type Deps, failure, writeFileAtomic } from "../core/mod.ts";
import { type InboundRuntime, type InboundSeams, startInbound } from "../inbound/mod.ts";
import { type CardCallbacks, type ControlHandler, createCardCallbacks } from "../callbacks/mod.ts";
import { type McpApp, validateToolCall } from "../mcp/mod.ts";
import { createNotifier, liccInboxDir, type PushTarget } from "../notify/mod.ts";
import { createPermissionRelay, type PermissionRelay } from "../permission/mod.ts";
import { type BridgeHealth, createLocalCommands } from "../../commands/mod.ts";
import { commandSeams } from "./commands.ts";
import { createTaskCards, TASK_CARD_GAP_MS, type TaskCards } from "../taskcard/mod.ts";
import { createQuotaMeter, QUOTA_SAVING_CARD_GAP_MS, type QuotaMeter } from "../quota/mod.ts";
import { createHealthRecorder, createJournalInspector, type JournalInspector } from "./ops.ts";
import { openStore, type Store, type WorkdirLock } from "../store/mod.ts";
import { VERSION } from "./about.ts";
import { probeConfinement } from "./confinement.ts";
import { readResource } from "./resources.ts";
import { buildStatus, type McpView, type ServiceStatus } from "./status.ts";

/** What the MCP server asks of a started service (the rest it answers itself). */
export type ServiceApp = Pick<McpApp, "callTool" | "readResource">;

/** A started service. */
export interface Service {
  app: ServiceApp;
  /** The permission relay (tool prompts answered from Feishu), when configured. */
  permission: PermissionRelay | null;
  status(): ServiceStatus;
  close(): Promise<void>;
}

/** Options of {@link startService}. */
export interface ServiceOptions {
  /** The workdir lock, held for the service's life (released by `close`). */
  lock: WorkdirLock;
  /** Where MCP push notifications go. */
  push: PushTarget;
  /** Capabilities plugged into inbound (local commands, card callbacks, Task Cards). */
  seams?: InboundSeams;
  /** Control card buttons (the local-commands capability); without it they are only logged. */
  control?: ControlHandler;
  /** Open the long connections (default true; tests may drive the intake alone). */
  connect?: boolean;
  /** The MCP side of the status (era, client, published schema). */
  mcp?: () => McpView;
}

interface Loaded {
  config: Config | null;
  readable: boolean;
  errors: string[];
}

async function readConfig(launch: LaunchOptions, deps: Deps): Promise<Loaded> {
  if (!launch.configPath) {
    deps.log.warn("no config named; serving in degraded mode (only manual works)");
    return { config: null, readable: false, errors: [] };
  }
  const res = await loadConfig(launch.configPath, {
    workdir: launch.workdir,
    lingtai: Boolean(Deno.env.get("LINGTAI_AGENT_DIR")),
  });
  for (const s of res.secrets) deps.redactor.add(s);
  if (res.ok) return { config: res.config, readable: res.readable, errors: [] };
  for (const e of res.errors) deps.log.error(e);
  return { config: null, readable: res.readable, errors: res.errors };
}

/**
 * Starts the service. Imports the heavy parts (the node-sdk, zod schemas);
 * `serve` loads it after answering `tools/list`.
 */
export async function startService(
  launch: LaunchOptions,
  deps: Deps,
  options: ServiceOptions,
): Promise<Service> {
  const log = deps.log;
  const { config, readable, errors } = await readConfig(launch, deps);
  const notes: string[] = [];

  let store: Store | null = null;
  if (config) {
    try {
      store = openStore(launch.workdir, deps.clock);
    } catch (err) {
      const msg = err instanceof Error ? err.message : String(err);
      notes.push(msg);
      log.error(`store unavailable; serving in degraded mode: ${msg}`);
    }
  }

  // Counting starts before the first request (identity, tokens) goes out.
  const quota: QuotaMeter | null = config && store
    ? createQuotaMeter({
      sink: store.apiCalls,
      clock: deps.clock,
      monthlyCalls: config.quota.monthlyCalls,
      log,
    })
    : null;
  const health = store ? createHealthRecorder({ store, clock: deps.clock, log }) : null;
  const accounts: Account[] = config && store
    ? config.accounts.map((a) =>
      createAccount(a, {
        store: store!,
        clock: deps.clock,
        log,
        quota: quota ?? undefined,
        onConnectionStatus: health?.observe,
      })
    )
    : [];
  health?.start(accounts);
  const outbound = createOutboundRuntime();
  const context: ActionContext | null = config && store
    ? {
      deps,
      launch,
      config,
      store,
      accounts,
      outbound,
      identityPath: join(launch.workdir, "system", "mcp_identities", "feishu.json"),
    }
    : null;
  if (context) {
    for (const a of accounts) {
      log.info(`Feishu account '${a.alias}' configured (app_id=${a.appId})`);
    }
    await writeIdentityDocument(context).catch((err) =>
      log.warn("identity document not written", { error: String(err) })
    );
  }

  let inbound: InboundRuntime | null = null;
  let permission: PermissionRelay | null = null;
  let callbacks: CardCallbacks | null = null;
  let taskCards: TaskCards | null = null;
  let figures: JournalInspector | null = null;
  if (context) {
    try {
      const notifier = createNotifier({
        liccDir: context.config.notify.licc ? liccInboxDir(launch.workdir, launch.mcpName) : null,
        claudeChannel: context.config.notify.claudeChannel,
        push: options.push,
        clock: deps.clock,
        log,
      });
      const relay = createPermissionRelay({
        accounts,
        clock: deps.clock,
        log,
        notifyVerdict: (v) => options.push.notifyPermission?.(v) ?? Promise.resolve(),
      });
      permission = relay.enabled ? relay : null;
      const local = createLocalCommands({
        workdir: launch.workdir,
        now: () => deps.clock.now(),
        health: () => bridgeHealth(status()),
        log,
      });
      const cardsOfTasks = taskCards = createTaskCards({
        workdir: launch.workdir,
        store: context.store,
        accounts,
        clock: deps.clock,
        log,
        preference: () => local.taskcardPreference(),
        // Near the quota, fewer card writes; answers are never paced by it.
        gapMs: () => quota?.saving() ? QUOTA_SAVING_CARD_GAP_MS : TASK_CARD_GAP_MS,
      });
      context.onSent = (alias, m) => cardsOfTasks.observe(alias, m);
      const commands = commandSeams({
        commands: local,
        store: context.store,
        log,
        observe: (alias, m) => cardsOfTasks.observe(alias, m),
      });
      const cards = callbacks = createCardCallbacks({
        store: context.store,
        notifier,
        clock: deps.clock,
        log,
        votes: permission ?? undefined,
        control: options.control ?? commands.control,
      });
      inbound = await startInbound({
        deps,
        launch,
        config: context.config,
        store: context.store,
        accounts,
        notifier,
        seams: composeSeams({
          answerCard: cards.answer,
          handleCard: cards.handle,
          relay: permission,
          command: commands.intercept,
          taskCards: cardsOfTasks,
          extra: options.seams,
        }),
        connect: options.connect,
      });
      await cardsOfTasks.start();
      figures = createJournalInspector({
        journal: inbound.journal,
        clock: deps.clock,
        log,
        redact: (t) => deps.redactor.redact(t),
        sink: context.store.journalFigures,
      });
      await figures.refresh();
    } catch (err) {
      const msg = err instanceof Error ? err.message : String(err);
      notes.push(`inbound unavailable: ${msg}`);
      log.error(`inbound side failed to start: ${msg}`);
    }
  }

  // Fixed for the life of a --no-prompt process: probed once.
  const permissions = probeConfinement(launch.workdir, launch.confined);
  const status = () =>
    buildStatus({
      configPath: launch.configPath,
      configReadable: readable,
      configErrors: errors,
      accounts,
      store,
      inbound,
      connect: options.connect !== false,
      permissions,
      notes,
      mcp: options.mcp,
      callbacks: callbacks ? callbacks.counters : undefined,
      permission: permission ? () => ({ enabled: true, ...permission!.counters }) : undefined,
      taskCards: taskCards ? () => taskCards!.status() : undefined,
      quota: quota ? () => quota!.view() : undefined,
      journalFigures: figures ? () => figures!.figures() : undefined,
    });

  const app: ServiceApp = {
    callTool(args) {
      const v = validateToolCall(args);
      if (!v.ok) return Promise.resolve(v.failure);
      if (v.call.action === "manual") return Promise.resolve(manualResult());
      if (!context) {
        return Promise.resolve(failure("NOT_CONNECTED", "Feishu manager is not initialized"));
      }
      return dispatch(context, v.call);
    },
    readResource: (uri) =>
      Promise.resolve(readResource(uri, {
        version: VERSION,
        mcpName: launch.mcpName,
        status,
        inbox: () => inboxSummary(context),
      })),
  };

  return {
    app,
    permission,
    status,
    async close() {
      await figures?.close();
      await inbound?.close().catch((err) =>
        log.warn("inbound close failed", { error: String(err) })
      );
      await taskCards?.close().catch((err) =>
        log.warn("task cards close failed", { error: String(err) })
      );
      for (const a of accounts) a.outbox.close();
      outbound.close();
      // The connections are closed now: the snapshot says so, for doctor.
      await health?.close();
      store?.close();
      options.lock.release();
    },
  };
}

/**
 * The product's inbound seams: card callbacks, typed permission answers
 * (before local commands), the relay's note of who woke the agent; a test's
 * `extra` seams replace the card steps and run after the product's own.
 */
function composeSeams(parts: {
  answerCard: NonNullable<InboundSeams["answerCard"]>;
  handleCard: NonNullable<InboundSeams["handleCard"]>;
  relay: PermissionRelay | null;
  command: NonNullable<InboundSeams["interceptCommand"]>;
  taskCards: TaskCards;
  extra?: InboundSeams;
}): InboundSeams {
  const { relay, extra } = parts;
  return {
    answerCard: extra?.answerCard ?? parts.answerCard,
    handleCard: extra?.handleCard ?? parts.handleCard,
    async interceptCommand(ctx) {
      if (relay && await relay.typed(ctx.account, ctx.record)) return true;
      if (extra?.interceptCommand) return await extra.interceptCommand(ctx);
      return await parts.command(ctx);
    },
    async afterMessage(ctx) {
      relay?.noteWake({
        alias: ctx.account.alias,
        chatId: ctx.record.chat_id,
        threadId: ctx.record.thread_id,
        messageId: ctx.record.feishu_message_id,
      });
      parts.taskCards.requested(ctx.account.alias, {
        chatId: ctx.record.chat_id,
        threadId: ctx.record.thread_id,
        messageId: ctx.record.feishu_message_id,
      });
      await extra?.afterMessage?.(ctx);
    },
  };
}

/** What `/status` shows of the bridge itself. */
function bridgeHealth(s: ServiceStatus): BridgeHealth {
  return {
    accounts: s.accounts.map((a) => ({
      alias: a.alias,
      connection: a.connection.state,
      last_event_at: a.connection.last_event_at ?? null,
    })),
    queue_depth: s.journal?.pending ?? 0,
    dead_letters: s.journal?.dead_letters ?? 0,
    dead_letter_reasons: s.journal?.dead_letter_reasons,
    dedupe_keys: s.journal?.dedupe_keys,
    typing_pending: s.accounts.reduce((n, a) => n + (a.typing_pending ?? 0), 0),
    quota: s.quota,
  };
}

function inboxSummary(ctx: ActionContext | null): Record<string, unknown> {
  if (!ctx) return { status: "degraded", accounts: [] };
  return {
    status: "ok",
    accounts: ctx.accounts.map((a) => ({
      alias: a.alias,
      conversations: ctx.store.records.conversations(a.alias)
        .filter((c) => c.unread > 0)
        .map((c) => ({ chat_id: c.chatId, unread: c.unread, last_id: c.newest.id })),
    })),
  };
}

async function writeIdentityDocument(ctx: ActionContext): Promise<void> {
  const doc = {
    schema: "lingtai.mcp.identity.v1",
    mcp: "feishu",
    generated_at: new Date(ctx.deps.clock.now()).toISOString(),
    accounts: accountDetails(ctx),
  };
  await writeFileAtomic(ctx.identityPath, JSON.stringify(doc, null, 2) + "\n");
}
