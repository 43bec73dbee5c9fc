/**
 * A loopback Feishu (Lark) for tests and the sandbox: the Open API over HTTP,
 * the long connection (pbbp2 frames over WebSocket) and a control plane for
 * the web chat page, all on one 127.0.0.1 port. The real, unmodified
 * `@larksuiteoapi/node-sdk` talks to it when given its `url` as `domain`.
 *
 * It imports nothing from the rest of the project: its own clock, ids and
 * frame codec, written from Feishu's documented protocol rather than from the
 * product's code, so it cannot share the
 * product's bugs. Tests script users with `userSends`, `clickCard`, … and
 * assert on `messages`, `requests`, `events`; time runs on an injectable
 * clock (`ManualEmuClock`) so redelivery and limits need no sleeps.
 *
 * @example
 * ```ts
 * import { createEmulator, DEFAULT_IDS } from "./mod.ts";
 * await using emu = createEmulator();
 * const token = await emu.handle(new Request("http://x/open-apis/auth/v3/tenant_access_token/internal", {
 *   method: "POST",
 *   headers: { "content-type": "application/json" },
 *   body: JSON.stringify({ app_id: DEFAULT_IDS.appId, app_secret: DEFAULT_IDS.appSecret }),
 * })).then((r) => r.json());
 * if (!String(token.tenant_access_token).startsWith("t-")) throw new Error();
 * ```
 * @module
 */

export { createEmulator, startEmulator } from "./emulator.ts";
export type {
  Emulator,
  EventFilter,
  FaultControls,
  RequestFilter,
  WsControls,
} from "./emulator.ts";
export { type EmuClock, ManualEmuClock, RealEmuClock, type TimerId } from "./clock.ts";
export {
  type ClientConfig,
  DEFAULT_LIMITS,
  type EmuErrorRecord,
  type EmulatorOptions,
  FEISHU_CLIENT_CONFIG,
  type Limits,
  type RequestRecord,
  type Settings,
  TEST_CLIENT_CONFIG,
} from "./core.ts";
export { createDefaultWorld, DEFAULT_IDS, makeChat, makeUser, TENANT_KEY } from "./fixtures.ts";
export type {
  App,
  CardResult,
  Chat,
  ChatMode,
  Mention,
  Reaction,
  Sender,
  StoredMessage,
  Toast,
  Upload,
  User,
} from "./world.ts";
export { World } from "./world.ts";
export type { Change, ChangeFeed, ChangeKind, WaitOptions } from "./feed.ts";
export type { FaultResponse, FaultRule } from "./faults.ts";
export type { Inbound, UserMessageInput } from "./inbound.ts";
export type { Click } from "./actions.ts";
export type { CardAction } from "./events.ts";
export type { EventEnvelope } from "./views.ts";
export {
  type Ack,
  decodeFrame,
  type DeliveryAttempt,
  type DeliveryStatus,
  encodeFrame,
  type EndpointRefusal,
  type EventRecord,
  type Frame,
  type FrameHeader,
  type PushOptions,
  type SessionStatus,
  type UpgradeRefusal,
} from "./ws/mod.ts";
export { WEB_ASSETS, type WebAsset } from "./web/mod.ts";
