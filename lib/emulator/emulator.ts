/**
 * The emulator object: one `handle(req)` for HTTP, WS and the control plane,
 * the scripting helpers, the assertions, the fault knobs and `close()`.
 * `createEmulator` builds it in-process; `startEmulator` also binds it to
 * 127.0.0.1.
 * @module
 */

import { dissolve, recall, setBotInChat, userEntersP2p, userReacts, userReads } from "./actions.ts";
import { type BotMessageInput, botSends, type BotSent } from "./bots.ts";
import type { Emulator, EventFilter, FaultControls, RequestFilter, WsControls } from "./api.ts";
import { type Click, clickCard } from "./clicks.ts";
import type { EmuClock } from "./clock.ts";
import { handleControl, type StreamClosers } from "./control.ts";
import {
  type Core,
  createCore,
  type EmuErrorRecord,
  type EmulatorOptions,
  type Settings,
} from "./core.ts";
import type { CardAction } from "./events.ts";
import { Faults } from "./faults.ts";
import { type ChangeFeed, waitForChange, type WaitOptions } from "./feed.ts";
import { handleApi, revokeTokens } from "./http/mod.ts";
import { type ForwardInput, userForwards } from "./forward.ts";
import {
  type Inbound,
  type StoredUserMessageInput,
  storeUserMessage,
  uploadResource,
  type UserMessageInput,
  userSends,
} from "./inbound.ts";
import { REGISTRATION_PATH, Registrations } from "./registration.ts";
import { loopbackGuard } from "./same_origin.ts";
import type { RequestRecord } from "./types.ts";
import type { App, CardResult, Reaction, StoredMessage, World } from "./world.ts";
import { type EventRecord, type PushOptions, type SessionStatus, WsHub } from "./ws/mod.ts";

export type { Emulator, EventFilter, FaultControls, RequestFilter, WsControls } from "./api.ts";

class EmulatorImpl implements Emulator {
  url = "http://emulator.invalid";
  port = 0;
  tlsUrl: string | null = null;
  readonly registrations: Registrations;
  readonly #core: Core;
  readonly #hub: WsHub;
  readonly #faults: Faults;
  readonly #closers: StreamClosers = new Set();
  readonly #servers: Deno.HttpServer[] = [];
  #closed?: Promise<void>;

  constructor(options: EmulatorOptions) {
    this.#core = createCore(options);
    this.#hub = new WsHub(this.#core);
    this.#faults = new Faults(this.#core);
    this.registrations = new Registrations(this.#core, options.registration);
    this.handle = this.handle.bind(this);
  }

  /** Records an error the HTTP server caught outside `handle`. */
  recordServerError(error: unknown): void {
    this.#core.recordError("http.server", error);
  }

  attach(server: Deno.HttpServer, port: number): void {
    this.#servers.push(server);
    this.port = port;
    this.url = `http://127.0.0.1:${port}`;
  }

  attachTls(server: Deno.HttpServer, port: number): void {
    this.#servers.push(server);
    this.tlsUrl = `https://127.0.0.1:${port}`;
  }

  /** A signal that aborts when `signal` does or the emulator closes. */
  #untilClosed(signal?: AbortSignal): AbortSignal {
    return signal ? AbortSignal.any([signal, this.#core.closing]) : this.#core.closing;
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
    if (url.pathname === REGISTRATION_PATH) return await this.registrations.handle(req, url);
    const control = await handleControl(
      { ...this.#env, closers: this.#closers, registrations: this.registrations },
      req,
      url,
    );
    if (control) return control;
    return await handleApi({ ...this.#env, faults: this.#faults }, req, url);
  }

  readonly ws: WsControls = {
    status: () => this.#hub.status(),
    whenReady: async (options = {}) => {
      const app = options.app ?? this.world.primaryApp().appId;
      const s = await this.#hub.whenReady(app, {
        ...options,
        signal: this.#untilClosed(options.signal),
      });
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
    setCardFrameType: (type) => void (this.#core.settings.cardFrameType = type),
  };

  readonly faults: FaultControls = {
    add: (rule) => this.#faults.add(rule),
    clear: () => this.#faults.clear(),
    rules: () => this.#faults.rules,
    revokeTokens: () => revokeTokens(this.#core),
    setTokenExpire: (s) => void (this.#core.settings.tokenExpireSeconds = s),
    setChatRateLimit: (n) => void (this.#core.settings.chatRateLimit = n),
    setAppRateLimit: (n) => void (this.#core.settings.appRateLimit = n),
    setCardCallback: (mode, options = {}) => void (this.#appOf(options.app).cardCallback = mode),
    setScopes: ({ app, withhold = [], omit = [] }) =>
      void (this.#appOf(app).scopes = { withhold: [...withhold], omit: [...omit] }),
  };

  #appOf(appId?: string): App {
    const app = appId === undefined ? this.world.primaryApp() : this.world.apps.get(appId);
    if (!app) throw new Error(`Expected a known app id but found ${appId}`);
    return app;
  }

  userSends(input: UserMessageInput): Inbound {
    return userSends(this.#env, input);
  }

  botSends(input: BotMessageInput): BotSent {
    return botSends(this.#env, input);
  }
  userForwards(input: ForwardInput): Inbound {
    return userForwards(this.#env, input);
  }
  storeMessage(input: StoredUserMessageInput): StoredMessage {
    return storeUserMessage(this.#core, input);
  }
  uploadResource(input: { bytes: Uint8Array; kind?: "image" | "file"; fileName?: string }): string {
    return uploadResource(this.#core, input);
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
  dissolveChat(input: { chat: string; operator: string }): Inbound[] {
    return dissolve(this.#env, input);
  }
  userEntersP2p(input: { user: string; push?: PushOptions }): Inbound & { chatId: string } {
    return userEntersP2p(this.#env, input);
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
      .filter((m) =>
        m.sender.type === "app" && !m.upperMessageId &&
        (chatId === undefined || m.chatId === chatId)
      )
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
    return waitForChange(predicate, {
      ...options,
      signal: this.#untilClosed(options.signal),
      feed: this.#core.feed,
      clock: this.#core.clock,
    });
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
      await Promise.all(this.#servers.map((s) => s.shutdown()));
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

/** A certificate and key (PEM) for the emulator's TLS listener. */
export interface EmulatorTls {
  cert: string;
  key: string;
  /** Port of the TLS listener (0 = any free port, the default). */
  port?: number;
}

/**
 * Starts an emulator on 127.0.0.1 (`port` 0 by default picks a free port).
 * One port serves HTTP, the WS long connection and the control plane. Only
 * same-origin requests on the loopback host are served: a `Host` other than
 * `127.0.0.1:<port>` or `localhost:<port>`, or a foreign `Origin`, is refused
 * with 403 (see `same_origin.ts`). With `tls`, a second listener serves the
 * same handler over https (`tlsUrl`; its long connection is `wss://`).
 */
export async function startEmulator(
  options: EmulatorOptions & { tls?: EmulatorTls } = {},
): Promise<Emulator> {
  const emu = new EmulatorImpl(options);
  const listen = async (port: number, tls?: EmulatorTls) => {
    const ready = Promise.withResolvers<number>();
    let bound = 0;
    const server = Deno.serve({
      hostname: "127.0.0.1",
      port,
      ...(tls ? { cert: tls.cert, key: tls.key } : {}),
      onListen: (addr) => ready.resolve(addr.port),
      onError: (error) => {
        emu.recordServerError(error);
        return new Response(`emulator error: ${String(error)}`, { status: 500 });
      },
    }, (req) => loopbackGuard(req, bound, tls ? "https" : "http") ?? emu.handle(req));
    bound = await ready.promise;
    return { server, port: bound };
  };
  const plain = await listen(options.port ?? 0);
  emu.attach(plain.server, plain.port);
  if (options.tls) {
    const secure = await listen(options.tls.port ?? 0, options.tls).catch(async (err) => {
      await emu.close();
      throw err;
    });
    emu.attachTls(secure.server, secure.port);
  }
  return emu;
}
