/**
 * The emulator's public shape: the {@linkcode Emulator} interface and the
 * long-connection and fault knobs it exposes.
 * @module
 */

import type { BotMessageInput, BotSent } from "./bots.ts";
import type { Click } from "./clicks.ts";
import type { EmuClock } from "./clock.ts";
import type { Registrations } from "./registration.ts";
import type { ClientConfig, EmuErrorRecord, Settings } from "./core.ts";
import type { CardAction } from "./events.ts";
import type { ChangeFeed, WaitOptions } from "./feed.ts";
import type { ForwardInput } from "./forward.ts";
import type { Inbound, StoredUserMessageInput, UserMessageInput } from "./inbound.ts";
import type { FaultRule, FrameType, RequestRecord } from "./types.ts";
import type { EventEnvelope } from "./views.ts";
import type {
  CardCallbackMode,
  CardResult,
  Reaction,
  ScopeSetting,
  StoredMessage,
  World,
} from "./world.ts";
import type {
  Ack,
  EndpointRefusal,
  EventRecord,
  PushOptions,
  SessionStatus,
  UpgradeRefusal,
} from "./ws/mod.ts";

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
  /** ACKs that matched no pushed frame (e.g. answers to `sendCardFrame`). */
  unmatchedAcks(): readonly Ack[];
  /** The frame `type` of card clicks from now on (the `cardFrameType` setting). */
  setCardFrameType(type: FrameType): void;
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
  /**
   * How an app's card callbacks are delivered from now on: "long_connection"
   * or "none" (every click fails with 200340, nothing is pushed). Default
   * app: the first one.
   */
  setCardCallback(mode: CardCallbackMode, options?: { app?: string }): void;
  /**
   * The tenant's scope grants as `application/v6/scopes` lists them from now
   * on: `withhold` scopes are listed not granted (2), `omit` ones not at all.
   * Replaces the previous setting; `{}` grants every default scope again.
   * Listing only: other calls are not refused for a missing scope.
   */
  setScopes(setting: ScopeSetting & { app?: string }): void;
}

/** A running (or in-process) Feishu emulator. */
export interface Emulator extends AsyncDisposable {
  /** Base URL to give the node-sdk as `domain` (no trailing slash). */
  readonly url: string;
  /** Bound port (0 for `createEmulator`). */
  readonly port: number;
  /**
   * `https://127.0.0.1:<port>` of the TLS listener when `startEmulator` got
   * `tls`, else null. The same handler serves it; the node-sdk's app
   * registration insists on https.
   */
  readonly tlsUrl: string | null;
  /** One-click app registration (`/oauth/v1/app/registration`): scan, approve, deny, expire. */
  readonly registrations: Registrations;
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
  /**
   * Another app's bot posts a text to a group, as its Open API send would:
   * pushed to the other bots it @-mentions (all of them with the
   * `botMessages: "all"` setting).
   */
  botSends(input: BotMessageInput): BotSent;
  /**
   * A user forwards a chat history: one `merge_forward` message is pushed;
   * the messages in it (forwards nest) are read by `GET` on the forward.
   */
  userForwards(input: ForwardInput): Inbound;
  /**
   * Stores a user's message and pushes nothing: a message from before the
   * bot's time (`createTime`), or one it may not read (`unreadable`: 230027).
   */
  storeMessage(input: StoredUserMessageInput): StoredMessage;
  /** Uploads a resource as a user's client does; its key goes in a `raw` message. */
  uploadResource(input: { bytes: Uint8Array; kind?: "image" | "file"; fileName?: string }): string;
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
  /**
   * Dissolves a group: pushes `im.chat.disbanded_v1` to each app whose bot
   * was in it (one `Inbound` each); every chat operation then fails with 230045.
   */
  dissolveChat(input: { chat: string; operator: string }): Inbound[];
  /**
   * A user opens the bot's DM (primary app): creates the p2p chat when
   * missing and pushes `im.chat.access_event.bot_p2p_chat_entered_v1`.
   */
  userEntersP2p(input: { user: string; push?: PushOptions }): Inbound & { chatId: string };
  /** Recalls a message; `push` also sends `im.message.recalled_v1`. */
  recall(input: { messageId: string; push?: boolean; recallType?: string }): Inbound | undefined;
  /**
   * A user clicks a card: pushes `card.action.trigger` once (frame type from
   * `push.frameType` or the `cardFrameType` setting); `result` tells what
   * came of it (toast, card, `timedOut`, `errorCode`).
   */
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
