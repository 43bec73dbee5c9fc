/**
 * The running service, built in the order data flows, every part complete
 * before the next needs it: store (given) → the quota meter and the health
 * recorder → accounts (each with its api, counted, and outbox) → the
 * notifier and the conversation log → the permission relay, local
 * commands, Task Cards and card callbacks → the actions' context → inbound
 * (opened) → the listeners subscribed → status → inbound started. Nothing is
 * bound late and nothing is optional here: a failure on the way is the
 * caller's to turn into the degraded service.
 * @module
 */

import { join } from "node:path";
import { openAccessBook } from "../access/mod.ts";
import { createAccount } from "../account/mod.ts";
import { type ActionContext, dispatch } from "../actions/mod.ts";
import { createCardCallbacks } from "../callbacks/mod.ts";
import type { Config, LaunchOptions } from "../config/mod.ts";
import { createConversationLog } from "../conversation/mod.ts";
import type { Deps } from "../core/mod.ts";
import { openInbound } from "../inbound/mod.ts";
import { createNotifier, liccInboxDir } from "../notify/mod.ts";
import { createOutboundRuntime, recoverSends } from "../outbound/mod.ts";
import { createPermissionRelay } from "../permission/mod.ts";
import { createQuotaMeter, QUOTA_SAVING_CARD_GAP_MS } from "../quota/mod.ts";
import type { Store } from "../store/mod.ts";
import { createTaskCards, TASK_CARD_GAP_MS } from "../taskcard/mod.ts";
import { createLocalCommands } from "../../commands/mod.ts";
import { commandSeams } from "./commands.ts";
import { createPairing } from "./pairing.ts";
import { botLoopNotice } from "./bot_loop.ts";
import { probeConfinement } from "./confinement.ts";
import { createHealthRecorder, createJournalInspector } from "./ops.ts";
import { buildStatus, type SendRecoveryView } from "./status.ts";
import { type Service, serviceApp, type ServiceOptions } from "./service.ts";
import { bridgeHealth, inboxSummary, writeIdentityDocument } from "./views.ts";

/** What the running service is built from besides config and store. */
export interface RunningOptions extends ServiceOptions {
  /** Whether the config file could be read (for status). */
  configReadable: boolean;
}

/** Builds and starts the running service. */
export async function startRunning(
  launch: LaunchOptions,
  deps: Deps,
  config: Config,
  store: Store,
  options: RunningOptions,
): Promise<Service> {
  const { log, clock } = deps;
  // Cards use the logger's redactor (every configured secret registered), with readable placeholders.
  const cardRedactor = deps.redactor.forCards();
  const redact = (text: string) => cardRedactor.redact(text);
  // Counting starts before the first request (identity, tokens) goes out.
  const quota = createQuotaMeter({
    sink: store.apiCalls,
    clock,
    monthlyCalls: config.quota.monthlyCalls,
    log,
  });
  const health = createHealthRecorder({ store, clock, log });
  // Who is paired (feishu/access.json), before any account admits anyone.
  const book = openAccessBook(launch.workdir, { log });
  const accounts = config.accounts.map((a) =>
    createAccount(a, {
      store,
      clock,
      log,
      quota,
      onConnectionStatus: health.observe,
      paired: book,
    })
  );
  health.start(accounts);
  for (const a of accounts) log.info(`Feishu account '${a.alias}' configured (app_id=${a.appId})`);
  const outbound = createOutboundRuntime({ now: () => clock.now() });

  const notifier = createNotifier({
    liccDir: config.notify.licc ? liccInboxDir(launch.workdir, launch.mcpName) : null,
    claudeChannel: config.notify.claudeChannel,
    push: options.push,
    clock,
    log,
  });
  const conversation = createConversationLog({ store, notifier, clock, log });
  const context: ActionContext = {
    deps,
    launch,
    config,
    store,
    accounts,
    outbound,
    conversation,
    identityPath: join(launch.workdir, "system", "mcp_identities", "feishu.json"),
  };
  await writeIdentityDocument(context).catch((err) =>
    log.warn("identity document not written", { error: String(err) })
  );

  const relay = createPermissionRelay({
    accounts,
    clock,
    log,
    notifyVerdict: (v) => options.push.notifyPermission?.(v) ?? Promise.resolve(),
    redact,
    // Read only when a request arrives, after start: `local` exists by then.
    profile: () => local.profile(),
  });
  // `/status` reads the status, which exists before the journal can run a command.
  const local = createLocalCommands({
    workdir: launch.workdir,
    now: () => clock.now(),
    health: () => bridgeHealth(status()),
    log,
    redact,
  });
  const taskCards = createTaskCards({
    workdir: launch.workdir,
    store,
    conversation,
    accounts,
    clock,
    log,
    preference: () => local.taskcardPreference(),
    profile: () => local.profile(),
    redact,
    // Near the quota, fewer card writes; answers are never paced by it.
    gapMs: () => quota.saving() ? QUOTA_SAVING_CARD_GAP_MS : TASK_CARD_GAP_MS,
    scope: config.taskcard.scope,
    activeMs: config.taskcard.activeHours * 3_600_000,
    retentionMs: config.taskcard.retentionDays * 86_400_000,
  });
  const pairing = createPairing({ book, commands: local, store, conversation, clock, log });
  const commands = commandSeams({ commands: local, store, conversation, clock, log, pairing });
  const callbacks = createCardCallbacks({
    store,
    conversation,
    clock,
    log,
    votes: relay.enabled ? relay : undefined,
    control: commands.control,
  });
  const extra = options.seams;
  const inbound = await openInbound({
    deps,
    launch,
    config,
    store,
    accounts,
    conversation,
    seams: {
      answerCard: extra?.answerCard ?? callbacks.answer,
      pairingRequest: (ctx) => pairing.request(ctx),
      botWakesHeld: botLoopNotice({ store, conversation, clock, log, commands: local }),
      handleCard: extra?.handleCard ?? callbacks.handle,
      // A typed permission answer comes before local commands.
      async interceptCommand(ctx) {
        if (relay.enabled && await relay.typed(ctx.account, ctx.record)) return true;
        if (extra?.interceptCommand) return await extra.interceptCommand(ctx);
        return await commands.intercept(ctx);
      },
    },
  });
  conversation.onRecorded((r) => relay.onRecorded(r));
  conversation.onRecorded((r) => taskCards.onRecorded(r));
  conversation.onRecalled((r) => taskCards.onRecalled(r));
  for (const listener of options.listeners ?? []) conversation.onRecorded(listener);
  const figures = createJournalInspector({
    journal: inbound.journal,
    sink: store.journalFigures,
    clock,
    log,
    redact: (t) => deps.redactor.redact(t),
  });

  const sendRecovery: SendRecoveryView = {
    running: true,
    finish: 0,
    partial: 0,
    close: 0,
    drop: 0,
    error: null,
  };
  // Fixed for the life of a --no-prompt process: probed once.
  const permissions = probeConfinement(launch.workdir, launch.confined);
  const status = () =>
    buildStatus({
      configPath: launch.configPath,
      configReadable: options.configReadable,
      configErrors: [],
      accounts,
      store,
      inbound,
      permissions,
      notes: [],
      mcp: options.mcp,
      notifier: notifier.counters,
      callbacks: callbacks.counters,
      permission: relay.enabled ? () => ({ enabled: true, ...relay.counters }) : undefined,
      taskCards: () => taskCards.status(),
      quota: () => quota.view(),
      journalFigures: () => figures.figures(),
      sendRecovery: () => ({ ...sendRecovery }),
    });

  inbound.start();
  await taskCards.start();
  await figures.refresh();
  // Sends a crash cut off are finished (or recorded) in the background: nothing waits for them.
  void recoverSends({
    intents: store.intents,
    accounts,
    recorded: (alias, id) => store.records.sentMessage(alias, id) !== null,
    record: (alias, record) => conversation.record(alias, { kind: "sent", record }),
    now: () => clock.now(),
    log,
  }).then((counts) => Object.assign(sendRecovery, counts))
    .catch((err) => {
      sendRecovery.error = String(err);
      log.warn("send recovery failed", { error: String(err) });
    })
    .finally(() => sendRecovery.running = false);

  return {
    app: serviceApp(launch, {
      act: (call) => dispatch(context, call),
      status,
      inbox: () => inboxSummary(store, accounts),
    }),
    permission: relay.enabled ? relay : null,
    status,
    async close() {
      await figures.close();
      await inbound.close().catch((err) =>
        log.warn("inbound close failed", { error: String(err) })
      );
      await taskCards.close().catch((err) =>
        log.warn("task cards close failed", { error: String(err) })
      );
      for (const a of accounts) a.outbox.close();
      outbound.close();
      // The connections are closed now: the snapshot says so, for doctor.
      await health.close();
      store.close();
      options.lock.release();
    },
  };
}
