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
 * import { DEFAULT_IDS, startEmulator } from "./mod.ts";
 * await using emu = await startEmulator();
 * const token = await emu.handle(new Request("http://x/open-apis/auth/v3/tenant_access_token/internal", {
 *   method: "POST",
 *   headers: { "content-type": "application/json" },
 *   body: JSON.stringify({ app_id: DEFAULT_IDS.appId, app_secret: DEFAULT_IDS.appSecret }),
 * })).then((r) => r.json());
 * if (!String(token.tenant_access_token).startsWith("t-")) throw new Error();
 * ```
 * @module
 */

export { startEmulator } from "./emulator.ts";
export type { Emulator } from "./emulator.ts";
export { ManualEmuClock } from "./clock.ts";
export type { EmulatorOptions } from "./core.ts";
export type { RequestRecord } from "./types.ts";
export { DEFAULT_IDS, makeChat, makeUser, TENANT_KEY } from "./fixtures.ts";
export type { StoredMessage } from "./world.ts";
export { decodeFrame, encodeFrame, type Frame } from "./ws/mod.ts";
export { restoreWorld, snapshotWorld } from "./snapshot.ts";
