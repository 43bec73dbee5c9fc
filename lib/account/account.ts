/**
 * One configured Feishu app at run time — the single shape actions, inbound,
 * presence and status all use: its alias, app id, `allowed_users` and `owners`, its
 * REST api, its outbox (every write, paced for this app alone), the bot's
 * identity, sender names, and its long connection. Every HTTP request of
 * its REST client and of its long connection is reported to the quota meter
 * handed in, and every change of the connection's status to the health
 * observer.
 * @module
 */

import { admittedSet, type PairedLookup } from "../access/mod.ts";
import type { AccessRules, ResolvedAccount } from "../config/mod.ts";
import type { ApiCallCounter, Clock, Logger } from "../core/mod.ts";
import {
  createFeishuApi,
  type FeishuApi,
  type LongConnection,
  type LongConnectionOptions,
  type LongConnectionStatus,
  startLongConnection,
} from "../feishu/mod.ts";
import { createOutbox, type Outbox } from "../outbound/mod.ts";
import type { Store } from "../store/mod.ts";
import { refreshIdentity } from "./identity.ts";
import { createNameResolver, type NameResolver } from "./names.ts";

/** The bot's identity as one account knows it. */
export interface AccountIdentity {
  /** The bot's open_id (from memory: read on every message), or null while unknown. */
  botOpenId(): string | null;
  /** Looks the identity up now; resolves to the open_id in effect. */
  refresh(): Promise<string | null>;
  /** The open_id, looking it up first when unknown (at most once every 30 s). */
  ensure(): Promise<string | null>;
}

/** What the long connection reports to. */
export type ConnectionHandlers = Pick<
  LongConnectionOptions,
  "onEvent" | "onConnected" | "onStatus"
>;

/** One account's long connection. */
export interface AccountConnection {
  /** Opens the connection (once). */
  start(handlers: ConnectionHandlers): void;
  /** Null until started. */
  status(): LongConnectionStatus | null;
  close(): Promise<void>;
}

/** One configured account at run time. */
export interface Account {
  readonly alias: string;
  readonly appId: string;
  /** Open ids admitted, or null for everyone. */
  readonly allowedUsers: string[] | null;
  /** Open ids that may control the agent (see {@link controlRight}); empty when none. */
  readonly owners: readonly string[];
  /** Who may DM the bot and where `send` may go (`access` in the config). */
  readonly access: AccessRules;
  /** Whether `openId` is admitted: an owner, an allowed user or paired. */
  admits(openId: string): boolean;
  /** Every admitted open_id (owners, allowed users, paired people). */
  admittedIds(): string[];
  readonly api: FeishuApi;
  readonly outbox: Outbox;
  readonly identity: AccountIdentity;
  readonly names: NameResolver;
  readonly connection: AccountConnection;
  /** True while the month's API calls near the quota: automatic extras are skipped. */
  saving(): boolean;
}

/** The quota meter as an account sees it. */
export interface AccountQuota {
  /** The counter this account's HTTP requests report to. */
  counter(alias: string): ApiCallCounter;
  saving(): boolean;
}

/** What {@link createAccount} needs besides the config entry. */
export interface AccountDeps {
  store: Store;
  clock: Clock;
  log: Logger;
  /** Replaces the REST api (tests). */
  api?: FeishuApi;
  /** Outbox pacing (Feishu: 5 per chat, 50 per app, per second). */
  pacing?: { perChatPerSecond?: number; appPerSecond?: number };
  /** Counts every Feishu request and says when to save calls; absent = nothing counted. */
  quota?: AccountQuota;
  /** Sees every status change of the long connection (the health snapshot). */
  onConnectionStatus?: (alias: string, status: LongConnectionStatus) => void;
  /** Who is paired (the access book); absent = nobody. */
  paired?: PairedLookup;
}

/**
 * Whether someone may control the agent (local commands other than `/help`,
 * control-card buttons): `owner` when they are one of the account's
 * `owners` or — with no owners configured — one of its `allowed_users`;
 * `no_owner` when neither list names anyone (then nobody may: unlike the
 * original bridge, an open tenant does not mean everyone controls the
 * agent); `not_owner` otherwise.
 *
 * @example
 * ```ts
 * import { controlRight } from "./account.ts";
 * if (controlRight({ owners: ["ou_a"], allowedUsers: ["ou_b"] }, "ou_b") !== "not_owner") throw new Error();
 * if (controlRight({ owners: [], allowedUsers: ["ou_b"] }, "ou_b") !== "owner") throw new Error();
 * if (controlRight({ owners: [], allowedUsers: null }, "ou_b") !== "no_owner") throw new Error();
 * ```
 */
export function controlRight(
  account: Pick<Account, "owners" | "allowedUsers">,
  openId: string,
): "owner" | "not_owner" | "no_owner" {
  const list = account.owners.length > 0 ? account.owners : account.allowedUsers ?? [];
  if (list.length === 0) return "no_owner";
  return openId !== "" && list.includes(openId) ? "owner" : "not_owner";
}

/** How often an unknown identity may be looked up again. */
export const IDENTITY_LOOKUP_INTERVAL_MS = 30_000;

/** Builds the run-time account of one config entry. */
export function createAccount(config: ResolvedAccount, deps: AccountDeps): Account {
  const { store, clock, log } = deps;
  const alias = config.alias;
  const onCall = deps.quota?.counter(alias);
  const api = deps.api ?? createFeishuApi({
    alias,
    appId: config.appId,
    appSecret: config.appSecret,
    baseUrl: config.baseUrl,
    log,
    onCall,
  });
  const outbox = createOutbox({
    api,
    clock,
    ledger: store.writes.ledger(alias),
    p2pChatOf: (openId) => store.records.p2pChatOf(alias, openId),
    gone: {
      get: (chatId) => store.goneChats.get(alias, chatId),
      mark(chat) {
        log.warn("Feishu says the chat was dissolved; writes there are refused from now on", {
          account: alias,
          chat: chat.chatId,
        });
        store.goneChats.mark(alias, chat);
      },
    },
    ...deps.pacing,
  });

  let botOpenId = store.identities.get(alias)?.botOpenId ?? null;
  let lastLookup = Number.NEGATIVE_INFINITY;
  const refresh = async () => {
    lastLookup = clock.now();
    const id = await refreshIdentity({ api, identities: store.identities, clock, log });
    if (id?.botOpenId) botOpenId = id.botOpenId;
    return botOpenId;
  };
  const identity: AccountIdentity = {
    botOpenId: () => botOpenId,
    refresh,
    ensure: () =>
      botOpenId || clock.now() - lastLookup < IDENTITY_LOOKUP_INTERVAL_MS
        ? Promise.resolve(botOpenId)
        : refresh(),
  };

  let connection: LongConnection | null = null;
  const owners = config.owners ?? [];
  const admitted = () =>
    admittedSet(owners, config.allowedUsers, deps.paired?.pairedIds(alias) ?? []);
  return {
    alias,
    appId: config.appId,
    allowedUsers: config.allowedUsers,
    owners,
    admits: (openId) =>
      openId !== "" &&
      (owners.includes(openId) || (config.allowedUsers ?? []).includes(openId) ||
        (deps.paired?.isPaired(alias, openId) ?? false)),
    admittedIds: () => [...admitted()],
    access: config.access ?? {
      dm: config.allowedUsers ? "allowlist" : "open",
      outbound: "any",
    },
    api,
    outbox,
    identity,
    saving: () => deps.quota?.saving() ?? false,
    names: createNameResolver({
      contactName: (id) => store.contacts.displayName(alias, id),
      lookup: (id) => api.userName(id),
      log,
    }),
    connection: {
      start(handlers) {
        connection ??= startLongConnection({
          alias,
          appId: config.appId,
          appSecret: config.appSecret,
          baseUrl: config.baseUrl,
          log,
          clock,
          onCall,
          ...handlers,
          onStatus: (status) => {
            deps.onConnectionStatus?.(alias, status);
            handlers.onStatus?.(status);
          },
        });
      },
      status: () => connection?.status() ?? null,
      close: async () => {
        await connection?.close();
      },
    },
  };
}
