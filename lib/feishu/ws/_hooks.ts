/**
 * Hooks on a node-sdk `WSClient` instance (instance properties shadowing its
 * prototype methods; `node_modules` stays untouched):
 *
 * - **The open gap is closed.** The SDK resolves `connect()` on the socket's
 *   `open` and only then, a few microtasks later, attaches its `message`
 *   listener in `communicate()`; a frame emitted in between has no listener
 *   and is lost without an ACK. We attach a
 *   buffering listener inside the `open` handler itself (the SDK calls
 *   `pingLoop()` there) and, once `communicate()` has attached the SDK's
 *   listener, hand the buffered frames to it in arrival order.
 * - **Card frames are answered.** Feishu may deliver a card callback in a
 *   frame whose `type` header is `card`; the SDK handles only `event` frames
 *   and drops the rest without an ACK, so the click fails at the user's end.
 *   A `card` frame goes through the SDK's own event path (fragment merge,
 *   dispatcher, ACK) and its ACK keeps the frame's original headers.
 * - `onOpen` sees every new socket at that same moment (liveness listeners).
 * - `onPing` sees every ping the SDK sends.
 * - `beforeConnect` runs before each socket is opened, with the URL the
 *   endpoint returned (the proxy agent is chosen per URL there).
 * @module
 */

import type { lark } from "../_sdk.ts";
import { type SdkFrame, type SdkSocket, SOCKET_OPEN, wsInternals } from "./_internals.ts";

/** Callbacks of {@link hookWsClient}. */
export interface WsHooks {
  /** A new socket is open; runs inside its `open` handler, before any frame is dispatched. */
  onOpen?(socket: SdkSocket): void;
  /** The SDK sent a ping on the open socket. */
  onPing?(socket: SdkSocket): void;
  /** The SDK is about to open a socket to `url`; returns the `agent` to use (or undefined). */
  beforeConnect?(url: string): unknown;
}

interface Pending {
  frames: unknown[][];
  listener: (...args: unknown[]) => void;
}

/** Installs the hooks on one client; call once, before `start()`. */
export function hookWsClient(client: lark.WSClient, hooks: WsHooks = {}): void {
  const sdk = wsInternals(client);
  const seen = new WeakSet<SdkSocket>();
  const pending = new WeakMap<SdkSocket, Pending>();

  const pingLoop = sdk.pingLoop;
  sdk.pingLoop = function (this: typeof sdk) {
    const socket = sdk.wsConfig.getWSInstance();
    if (socket && !seen.has(socket)) {
      seen.add(socket);
      const frames: unknown[][] = [];
      const listener = (...args: unknown[]) => void frames.push(args);
      socket.on("message", listener);
      pending.set(socket, { frames, listener });
      hooks.onOpen?.(socket);
    }
    pingLoop.call(sdk);
    if (socket && socket.readyState === SOCKET_OPEN) hooks.onPing?.(socket);
  };

  const communicate = sdk.communicate;
  sdk.communicate = function (this: typeof sdk) {
    communicate.call(sdk);
    const socket = sdk.wsConfig.getWSInstance();
    const held = socket ? pending.get(socket) : undefined;
    if (!socket || !held) return;
    pending.delete(socket);
    socket.off("message", held.listener);
    for (const args of held.frames) socket.emit("message", ...args);
  };

  const handleEventData = sdk.handleEventData;
  sdk.handleEventData = function (this: typeof sdk, frame: SdkFrame) {
    const type = frame.headers.find((h) => h.key === "type");
    if (type?.value !== "card") return handleEventData.call(sdk, frame);
    // The SDK's event path on a view of the client whose `sendMessage` puts the
    // original headers back on the ACK (plus the SDK's `biz_rt`).
    const asEvent = {
      ...frame,
      headers: frame.headers.map((h) => h.key === "type" ? { key: "type", value: "event" } : h),
    };
    const view = Object.create(sdk) as typeof sdk;
    view.sendMessage = (ack: SdkFrame) =>
      sdk.sendMessage({
        ...ack,
        headers: [...frame.headers, ...ack.headers.slice(frame.headers.length)],
      });
    return handleEventData.call(view, asEvent);
  };

  const connect = sdk.connect;
  sdk.connect = function (this: typeof sdk) {
    if (hooks.beforeConnect) sdk.agent = hooks.beforeConnect(sdk.wsConfig.getWS("connectUrl"));
    return connect.call(sdk);
  };
}
