/**
 * The emulator object: one `handle(req)` for HTTP, WS and the control plane,
 * the scripting helpers, the assertions, the fault knobs and `close()`.
 * `createEmulator` builds it in-process; `startEmulator` also binds it to
 * 127.0.0.1.
 * @module
 */

import { type Click, clickCard, recall, setBotInChat, userReacts, userReads } from "./actions.ts";
import type { EmuClock } from "./clock.ts";
import { handleControl, type StreamClosers } from "./control.ts";
import {
  type ClientConfig,
  type Core,
  createCore,
  type EmuErrorRecord,
  type EmulatorOptions,
  type RequestRecord,
  type Settings,
} from "./core.ts";
import type { CardAction } from "./events.ts";
import { type FaultRule, Faults } from "./faults.ts";
import { type ChangeFeed, waitForChange, type WaitOptions } from "./feed.ts";
import { revokeTokens } from "./http/auth.ts";
import { handleApi } from "./http/dispatch.ts";
import { type Inbound, type UserMessageInput, userSends } from "./inbound.ts";
import type { CardResult, Reaction, StoredMessage, World } from "./world.ts";
import type { EventRecord, PushOptions } from "./ws/delivery.ts";
import type { EndpointRefusal, SessionStatus, UpgradeRefusal, WsHub as Hub } from "./ws/hub.ts";
import { WsHub } from "./ws/hub.ts";
import type { EventEnvelope } from "./views.ts";

/** Filter for {@linkcode Emulator.requests}. */
export interface RequestFilter {
  method?: string;
  /** Exact path, `:param` pattern or RegExp. */
  path?: string | RegExp;
}

/** Filter for {@linkcode Emulator.events}. */
export interface EventFilter {
  type?: string;
  status?: EventRecord["status"];
}

/** Long-connection knobs and status. */
export interface WsControls {
  /** Every session, closed ones included. */
  status(): SessionStatus[];
  /** Resolves once a session of the app has sent its first ping (safe to push). */
  whenReady(options?: WaitOptions & { app?: string }): Promise<SessionStatus>;
  /** Closes open sessions; `graceful: false` also drops frames in flight. */
  drop(options?: { graceful?: boolean; sessionId?: string }): number;
  /** Silent sockets stay open but get no pongs and no events. */
  setSilent(silent: boolean, options?: { sessionId?: string }): void;
  /** Answers the next endpoint calls with `code` (514 fatal, 1000040343 retryable). */
  refuseEndpoint(refusal: EndpointRefusal): void;
  /** Refuses the next WS upgrades with an HTTP status. */
  refuseUpgrade(refusal: UpgradeRefusal): void;
  /** While true, ACKs are recorded as ignored, so events are pushed again. */
  withholdAcks(withhold: boolean): void;
  /** Changes the ClientConfig sent with endpoints and pongs. */
  setClientConfig(config: Partial<ClientConfig>): void;
  /** Pushes an event once more now. */
  duplicate(eventId: string): boolean;
  /** Sends raw bytes to every open session (e.g. a malformed frame). */
  sendRaw(bytes: Uint8Array): number;
  /** Sends an envelope as a `type=card` frame, which the SDK ignores. */
  sendCardFrame(envelope?: EventEnvelope): string;
  /** ACKs that matched no event frame. */
  unmatchedAcks(): readonly EventRecord["acks"][number][];
}

/** HTTP fault knobs. */
export interface FaultControls {
  /** Adds a rule to the queue (first match wins). */
  add(rule: FaultRule): void;
  /** Removes every rule. */
  clear(): void;
  /** Pending rules. */
  rules(): readonly FaultRule[];
  /** Revokes issued tokens (99991663 until the client fetches a new one). */
  revokeTokens(): number;
  /** `expire` of tokens issued from now on (≤ 180 makes the SDK fetch one per call). */
  setTokenExpire(seconds: number): void;
  /** Per-chat send/reply limit per second, or false. */
  setChatRateLimit(perSecond: number | false): void;
  /** App-wide requests per second, or false. */
  setAppRateLimit(perSecond: number | false): void;
}

/** A running (or in-process) Feishu emulator. */
export interface Emulator extends AsyncDisposable {
  /** Base URL to give the node-sdk as `domain` (no trailing slash). */
  readonly url: string;
  /** Bound port (0 for `createEmulator`). */
  readonly port: number;
  /** Serves one request: Open API, `/callback/ws/endpoint`, `/ws/v2`, control plane. */
  handle(req: Request): Promise<Response>;
  readonly world: World;
  readonly clock: EmuClock;
  readonly settings: Settings;
  /** State-change notifications. */
  readonly changes: ChangeFeed;
  readonly ws: WsControls;
  readonly faults: FaultControls;

  /** A user sends a message (pushes `im.message.receive_v1`). */
  userSends(input: UserMessageInput): Inbound;
  /** A user adds a reaction. */
  userReacts(
    input: { user: string; messageId: string; emoji: string; push?: PushOptions },
  ): Inbound;
  /** A user removes their reaction. */
  userUnreacts(
    input: { user: string; messageId: string; emoji: string; push?: PushOptions },
  ): Inbound;
  /** A user reads messages. */
  userReads(input: { user: string; messageIds: string[] }): Inbound;
  /** Adds the bot to a chat (pushes `bot.added_v1`). */
  addBotToChat(input: { chat: string; operator: string }): Inbound;
  /** Removes the bot from a chat (pushes `bot.deleted_v1`; sends then fail with 230002). */
  removeBotFromChat(input: { chat: string; operator: string }): Inbound;
  /** Recalls a message; `push` also sends `im.message.recalled_v1`. */
  recall(input: { messageId: string; push?: boolean; recallType?: string }): Inbound | undefined;
  /** A user clicks a card. */
  clickCard(
    input: { user: string; messageId: string } & CardAction & { push?: PushOptions },
  ): Click;

  /** Messages of a chat, oldest first. */
  messages(chatId: string): StoredMessage[];
  /** The last message the bot sent (optionally in one chat). */
  lastSent(chatId?: string): StoredMessage | undefined;
  /** Logged Open API requests, oldest first. */
  requests(filter?: RequestFilter): RequestRecord[];
  /** Reactions of a message. */
  reactions(messageId: string): Reaction[];
  /** Pushed events with their deliveries and ACKs. */
  events(filter?: EventFilter): EventRecord[];
  /** The record of one event. */
  event(eventId: string): EventRecord | undefined;
  /** Card click results, in order. */
  cardResults(): readonly CardResult[];
  /** Processing errors (bad frames, unexpected exceptions). */
  errors(): readonly EmuErrorRecord[];
  /** Resolves with the predicate's first truthy value, re-checked on every change. */
  waitFor<T>(
    predicate: () => T | undefined | null | false | 0 | "",
    options?: WaitOptions,
  ): Promise<T>;
  /** Resolves with the first message matching `predicate` (bot or user). */
  waitForMessage(
    predicate: (m: StoredMessage) => boolean,
    options?: WaitOptions,
  ): Promise<StoredMessage>;

  /** Stops sockets, streams, timers and the server. */
  close(): Promise<void>;
}

class EmulatorImpl implements Emulator {
  url = "http://emulator.invalid";
  port = 0;
  readonly #core: Core;
  readonly #hub: Hub;
  readonly #faults: Faults;
  readonly #closers: StreamClosers = new Set();
  #server?: Deno.HttpServer;
  #closed?: Promise<void>;

  constructor(options: EmulatorOptions) {
    this.#core = createCore(options);
    this.#hub = new WsHub(this.#core);
    this.#faults = new Faults(this.#core);
    this.handle = this.handle.bind(this);
  }

  attach(server: Deno.HttpServer, port: number): void {
    this.#server = server;
    this.port = port;
    this.url = `http://127.0.0.1:${port}`;
  }

  get #env() {
    return { core: this.#core, hub: this.#hub };
  }

  get world(): World {
    return this.#core.world;
  }
  get clock(): EmuClock {
    return this.#core.clock;
  }
  get settings(): Settings {
    return this.#core.settings;
  }
  get changes(): ChangeFeed {
    return this.#core.feed;
  }

  async handle(req: Request): Promise<Response> {
    const url = new URL(req.url);
    if (this.#core.closing.aborted) return new Response("emulator closed", { status: 503 });
    if (url.pathname === "/ws/v2") return this.#hub.upgrade(req, url);
    const control = await handleControl({ ...this.#env, closers: this.#closers }, req, url);
    if (control) return control;
    return await handleApi({ ...this.#env, faults: this.#faults }, req, url);
  }

  readonly ws: WsControls = {
    status: () => this.#hub.status(),
    whenReady: async (options = {}) => {
      const app = options.app ?? this.world.primaryApp().appId;
      const s = await this.#hub.whenReady(app, options);
      return this.#hub.status().find((x) => x.session_id === s.id) as SessionStatus;
    },
    drop: (options = {}) => this.#hub.drop(options),
    setSilent: (silent, options = {}) => this.#hub.setSilent(silent, options),
    refuseEndpoint: (r) => void this.#hub.endpointRefusals.push({ ...r }),
    refuseUpgrade: (r) => void this.#hub.upgradeRefusals.push({ ...r }),
    withholdAcks: (w) => void (this.#hub.deliveries.ignoreAcks = w),
    setClientConfig: (c) => void Object.assign(this.#core.settings.clientConfig, c),
    duplicate: (id) => this.#hub.deliveries.duplicate(id),
    sendRaw: (bytes) => this.#hub.sendRaw(bytes),
    sendCardFrame: (envelope) =>
      this.#hub.sendCardFrame(
        envelope ?? {
          schema: "2.0",
          header: {
            event_id: this.#core.ids.next("ev_card_"),
            event_type: "card.action.trigger",
            create_time: `${this.clock.now()}000`,
            token: "",
            app_id: this.world.primaryApp().appId,
            tenant_key: this.world.primaryApp().tenantKey,
          },
          event: {},
        },
      ),
    unmatchedAcks: () => this.#hub.deliveries.unmatchedAcks,
  };

  readonly faults: FaultControls = {
    add: (rule) => this.#faults.add(rule),
    clear: () => this.#faults.clear(),
    rules: () => this.#faults.rules,
    revokeTokens: () => revokeTokens(this.#core),
    setTokenExpire: (s) => void (this.#core.settings.tokenExpireSeconds = s),
    setChatRateLimit: (n) => void (this.#core.settings.chatRateLimit = n),
    setAppRateLimit: (n) => void (this.#core.settings.appRateLimit = n),
  };

  userSends(input: UserMessageInput): Inbound {
    return userSends(this.#env, input);
  }
  userReacts(
    input: { user: string; messageId: string; emoji: string; push?: PushOptions },
  ): Inbound {
    return userReacts(this.#env, input);
  }
  userUnreacts(
    input: { user: string; messageId: string; emoji: string; push?: PushOptions },
  ): Inbound {
    return userReacts(this.#env, { ...input, remove: true });
  }
  userReads(input: { user: string; messageIds: string[] }): Inbound {
    return userReads(this.#env, input);
  }
  addBotToChat(input: { chat: string; operator: string }): Inbound {
    return setBotInChat(this.#env, { ...input, added: true });
  }
  removeBotFromChat(input: { chat: string; operator: string }): Inbound {
    return setBotInChat(this.#env, { ...input, added: false });
  }
  recall(input: { messageId: string; push?: boolean; recallType?: string }): Inbound | undefined {
    return recall(this.#env, input);
  }
  clickCard(
    input: { user: string; messageId: string } & CardAction & { push?: PushOptions },
  ): Click {
    const { user, messageId, push, ...action } = input;
    return clickCard(this.#env, { user, messageId, action, push });
  }

  messages(chatId: string): StoredMessage[] {
    return this.world.messagesOf(chatId);
  }
  lastSent(chatId?: string): StoredMessage | undefined {
    return [...this.world.messages.values()]
      .filter((m) => m.sender.type === "app" && (chatId === undefined || m.chatId === chatId))
      .sort((a, b) => a.seq - b.seq)
      .at(-1);
  }
  requests(filter: RequestFilter = {}): RequestRecord[] {
    return this.#core.requests.filter((r) =>
      (!filter.method || r.method === filter.method.toUpperCase()) &&
      (!filter.path ||
        (filter.path instanceof RegExp
          ? filter.path.test(r.path)
          : pathMatches(filter.path, r.path)))
    );
  }
  reactions(messageId: string): Reaction[] {
    return this.world.reactionsOf(messageId);
  }
  events(filter: EventFilter = {}): EventRecord[] {
    return this.#hub.deliveries.records.filter((e) =>
      (!filter.type || e.eventType === filter.type) &&
      (!filter.status || e.status === filter.status)
    );
  }
  event(eventId: string): EventRecord | undefined {
    return this.#hub.deliveries.get(eventId);
  }
  cardResults(): readonly CardResult[] {
    return this.world.cardResults;
  }
  errors(): readonly EmuErrorRecord[] {
    return this.#core.errors;
  }
  waitFor<T>(
    predicate: () => T | undefined | null | false | 0 | "",
    options: WaitOptions = {},
  ): Promise<T> {
    return waitForChange(predicate, { ...options, feed: this.#core.feed, clock: this.#core.clock });
  }
  waitForMessage(
    predicate: (m: StoredMessage) => boolean,
    options: WaitOptions = {},
  ): Promise<StoredMessage> {
    return this.waitFor(() => [...this.world.messages.values()].find(predicate), {
      description: "a matching message",
      ...options,
    });
  }

  close(): Promise<void> {
    this.#closed ??= (async () => {
      this.#core.close();
      this.#hub.close();
      for (const close of [...this.#closers]) close();
      this.#core.clock.clearAll();
      if (this.#server) await this.#server.shutdown();
    })();
    return this.#closed;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

function pathMatches(pattern: string, path: string): boolean {
  if (pattern === path) return true;
  const want = pattern.split("/");
  const got = path.split("/");
  return want.length === got.length &&
    want.every((w, i) => w.startsWith(":") ? (got[i] ?? "") !== "" : w === got[i]);
}

/**
 * Builds an emulator without binding a port; call `handle(req)` directly.
 *
 * @example
 * ```ts
 * import { createEmulator } from "./emulator.ts";
 * await using emu = createEmulator();
 * const res = await emu.handle(new Request("http://x/open-apis/bot/v3/info"));
 * const body = await res.json();
 * if (res.status !== 400 || body.code !== 99991661) throw new Error(JSON.stringify(body));
 * ```
 */
export function createEmulator(options: EmulatorOptions = {}): Emulator {
  return new EmulatorImpl(options);
}

/**
 * Starts an emulator on 127.0.0.1 (`port` 0 by default picks a free port).
 * One port serves HTTP, the WS long connection and the control plane.
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const emu = new EmulatorImpl(options);
  const ready = Promise.withResolvers<number>();
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: options.port ?? 0,
    onListen: (addr) => ready.resolve(addr.port),
    onError: (error) => {
      return new Response(`emulator error: ${String(error)}`, { status: 500 });
    },
  }, emu.handle);
  emu.attach(server, await ready.promise);
  return emu;
}
