/**
 * The composition root of `serve`: lock the workdir, read the config, open
 * the store, build the accounts, and expose everything to MCP. Any failure
 * short of the lock leaves a degraded server that still answers `manual`.
 * @module
 */

import { join } from "node:path";
import { type Config, type LaunchOptions, loadConfig } from "../config/mod.ts";
import { type Deps, failure, writeFileAtomic } from "../core/mod.ts";
import { createFeishuApi } from "../feishu/mod.ts";
import { INSTRUCTIONS, SERVER_NAME, VERSION } from "./about.ts";
import {
  accountDetails,
  type ActionContext,
  createOutboundRuntime,
  dispatch,
  type LiveActions,
  liveActions,
  manualResult,
  type OutboundRuntime,
} from "../actions/mod.ts";
import { type McpApp, type McpHandle, validateToolCall } from "../mcp/mod.ts";
import { lockWorkdir, openStore, stateDir, type Store, type WorkdirLock } from "../store/mod.ts";
import { readResource, resourceList } from "./resources.ts";
import { type InboundRuntime, journalStatus, startInbound } from "./inbound.ts";
import { probeConfinement } from "./confinement.ts";
import { type AccountStatus, buildStatus } from "./status.ts";

/** A started service. */
export interface Service {
  app: McpApp;
  /** Null in degraded mode. */
  context: ActionContext | null;
  /** Hooks the MCP handle in (for push notifications). */
  attach(mcp: McpHandle): void;
  close(): Promise<void>;
}

/**
 * Starts the service. Throws only when the workdir lock is held by another
 * process (the caller exits with that message). Imports the heavy parts (the
 * node-sdk, zod schemas); `serve` loads it after answering `tools/list`.
 */
export async function startService(
  launch: LaunchOptions,
  deps: Deps,
  options: { lock?: WorkdirLock; connect?: boolean } = {},
): Promise<Service> {
  const log = deps.log;
  const lock: WorkdirLock = options.lock ?? lockWorkdir(stateDir(launch.workdir));
  let config: Config | null = null;
  let configErrors: string[] = [];
  let configReadable = false;
  if (launch.configPath) {
    const res = await loadConfig(launch.configPath, {
      workdir: launch.workdir,
      lingtai: Boolean(Deno.env.get("LINGTAI_AGENT_DIR")),
    });
    for (const s of res.secrets) deps.redactor.add(s);
    configReadable = res.readable;
    if (res.ok) config = res.config;
    else {
      configErrors = res.errors;
      for (const e of res.errors) log.error(e);
    }
  } else {
    log.warn("no config named; serving in degraded mode (only manual works)");
  }

  let store: Store | null = null;
  const notes: string[] = [];
  if (config) {
    try {
      store = openStore(launch.workdir, deps.clock);
    } catch (err) {
      const msg = err instanceof Error ? err.message : String(err);
      notes.push(msg);
      log.error(`store unavailable; serving in degraded mode: ${msg}`);
    }
  }

  let context: ActionContext | null = null;
  if (config && store) {
    const accounts = config.accounts.map((a) => ({
      alias: a.alias,
      appId: a.appId,
      allowedUsers: a.allowedUsers,
      api: createFeishuApi({
        alias: a.alias,
        appId: a.appId,
        appSecret: a.appSecret,
        baseUrl: a.baseUrl,
        log,
      }),
    }));
    context = {
      deps,
      launch,
      config,
      store,
      accounts,
      identityPath: join(launch.workdir, "system", "mcp_identities", "feishu.json"),
    };
    for (const a of config.accounts) {
      log.info(`Feishu account '${a.alias}' configured (app_id=${a.appId})`);
    }
    await writeIdentityDocument(context).catch((err) =>
      log.warn("identity document not written", { error: String(err) })
    );
  }

  // Fixed for the life of a --no-prompt process: probed once.
  const permissions = probeConfinement(launch.workdir, launch.confined);
  let mcp: McpHandle | null = null;
  let inbound: InboundRuntime | null = null;
  if (context) {
    try {
      inbound = await startInbound({
        deps,
        launch,
        config: context.config,
        store: context.store,
        accounts: context.accounts,
        push: () => mcp,
        connect: options.connect,
      });
    } catch (err) {
      const msg = err instanceof Error ? err.message : String(err);
      notes.push(`inbound unavailable: ${msg}`);
      log.error(`inbound side failed to start: ${msg}`);
    }
  }

  const outbound: OutboundRuntime | null = context
    ? createOutboundRuntime({ clock: deps.clock })
    : null;
  const live: Partial<LiveActions> = outbound ? liveActions(outbound) : {};
  const accountStatus = (): AccountStatus[] =>
    (config?.accounts ?? []).map((a) => {
      const id = context?.store.identities.get(a.alias) ?? null;
      const inb = inbound?.status(a.alias);
      return {
        alias: a.alias,
        appId: a.appId,
        allowedUsersCount: a.allowedUsers ? a.allowedUsers.length : null,
        connection: inb?.connection,
        identity: id
          ? {
            bot_name: id.botName,
            bot_open_id_known: id.botOpenId !== null,
            source: id.source,
            last_verified_at: id.lastVerifiedAt ? new Date(id.lastVerifiedAt).toISOString() : null,
          }
          : undefined,
        admission: inbound ? { ...inbound.pipeline.counters(a.alias) } as never : undefined,
        extra: inb ? { intake: inb.intake, backfill: inb.backfill } : undefined,
      };
    });
  const status = () =>
    buildStatus({
      started: context !== null,
      configPath: launch.configPath,
      configReadable,
      configErrors,
      accounts: accountStatus(),
      notes,
      extra: {
        permissions,
        ...(inbound
          ? {
            journal: journalStatus(inbound.journal.stats()),
            notifications: { ...inbound.notifier.counters },
          }
          : {}),
      },
    });

  const app: McpApp = {
    name: SERVER_NAME,
    version: VERSION,
    instructions: INSTRUCTIONS,
    callTool(args) {
      const v = validateToolCall(args);
      if (!v.ok) return Promise.resolve(v.failure);
      if (v.call.action === "manual") return Promise.resolve(manualResult());
      if (!context) {
        return Promise.resolve(failure("NOT_CONNECTED", "Feishu manager is not initialized"));
      }
      return dispatch(context, v.call, live);
    },
    listResources: resourceList,
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
    context,
    attach: (handle) => {
      mcp = handle;
    },
    async close() {
      outbound?.close();
      await inbound?.close().catch((err) =>
        log.warn("inbound close failed", { error: String(err) })
      );
      store?.close();
      lock.release();
    },
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
  const details = accountDetails(ctx);
  const doc = {
    schema: "lingtai.mcp.identity.v1",
    mcp: "feishu",
    generated_at: new Date(ctx.deps.clock.now()).toISOString(),
    accounts: details,
  };
  await writeFileAtomic(ctx.identityPath, JSON.stringify(doc, null, 2) + "\n");
}
