import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { DEFAULT_IDS, type Emulator, encodeFrame, startEmulator } from "../../emulator/mod.ts";
import { lark } from "../_sdk.ts";
import { hookWsClient } from "./_hooks.ts";
import type { SdkSocket, SdkWsInternals } from "./_internals.ts";

const D = DEFAULT_IDS;
const quiet = { error() {}, warn() {}, info() {}, debug() {}, trace() {} };

/**
 * A data frame as Feishu would push it, carrying one event envelope; a
 * `card` frame carries a card callback.
 */
function eventFrame(eventId: string, type: "event" | "card" = "event"): Buffer {
  const envelope = type === "event"
    ? {
      schema: "2.0",
      header: { event_id: eventId, event_type: "im.message.receive_v1", app_id: D.appId },
      event: { message: { message_id: `om_${eventId}` } },
    }
    : {
      schema: "2.0",
      header: { event_id: eventId, event_type: "card.action.trigger", app_id: D.appId },
      event: { action: { value: { k: 1 } }, context: { open_chat_id: D.aliceP2p } },
    };
  return Buffer.from(encodeFrame({
    SeqID: 0,
    LogID: 0,
    service: 33554678,
    method: 1,
    headers: [
      { key: "type", value: type },
      { key: "message_id", value: `frame_${eventId}` },
      { key: "sum", value: "1" },
      { key: "seq", value: "0" },
      { key: "trace_id", value: eventId },
    ],
    payload: new TextEncoder().encode(JSON.stringify(envelope)),
  }));
}

/**
 * Starts a WSClient whose socket receives `frames` inside its `open` handler —
 * the first moment a frame can exist — and returns the event ids the
 * dispatcher saw once a later, ordinary event was ACKed.
 */
async function firstInstant(
  emu: Emulator,
  frames: Buffer[],
  install: (client: lark.WSClient, atOpen: (socket: SdkSocket) => void) => void,
): Promise<string[]> {
  const seen: string[] = [];
  const client = new lark.WSClient({
    appId: D.appId,
    appSecret: D.appSecret,
    domain: emu.url,
    logger: quiet,
    loggerLevel: lark.LoggerLevel.error,
  });
  install(client, (socket) => {
    for (const f of frames) socket.emit("message", f, true);
  });
  const dispatcher = {
    invoke: (data: { header: { event_id: string; event_type: string } }) => {
      seen.push(data.header.event_id);
      const card = data.header.event_type === "card.action.trigger";
      return Promise.resolve(card ? { toast: { type: "info", content: "ok" } } : undefined);
    },
  };
  try {
    void client.start({ eventDispatcher: dispatcher as unknown as lark.EventDispatcher });
    await emu.ws.whenReady();
    const later = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "later" });
    await later.ack;
    return seen.map((id) => id === later.eventId ? "later" : id);
  } finally {
    client.close({ force: true });
  }
}

/** Installs only an open hook, as the bare SDK behaves otherwise. */
function bareAtOpen(client: lark.WSClient, atOpen: (socket: SdkSocket) => void): void {
  const sdk = client as unknown as SdkWsInternals;
  const pingLoop = sdk.pingLoop;
  let opened = false;
  sdk.pingLoop = function () {
    const socket = sdk.wsConfig.getWSInstance();
    if (socket && !opened) {
      opened = true;
      atOpen(socket);
    }
    pingLoop.call(sdk);
  };
}

Deno.test("hookWsClient() delivers frames that arrive inside the socket's open handler, in order, once", async () => {
  await using emu = await startEmulator();
  const seen = await firstInstant(
    emu,
    [eventFrame("ev_first"), eventFrame("ev_second")],
    (client, atOpen) => hookWsClient(client, { onOpen: atOpen }),
  );
  assert.deepEqual(seen, ["ev_first", "ev_second", "later"]);
  assert.deepEqual(
    emu.ws.unmatchedAcks().map((a) => [a.frameId, a.code]),
    [["frame_ev_first", 200], ["frame_ev_second", 200]],
  );
});

Deno.test("hookWsClient() is needed: the bare SDK drops a frame that arrives inside the open handler", async () => {
  await using emu = await startEmulator();
  const seen = await firstInstant(emu, [eventFrame("ev_lost")], bareAtOpen);
  assert.deepEqual(seen, ["later"]);
  assert.deepEqual(emu.ws.unmatchedAcks(), []);
});

Deno.test("hookWsClient() dispatches a card callback sent as a type=card frame and ACKs it with the answer", async () => {
  await using emu = await startEmulator();
  const seen = await firstInstant(
    emu,
    [eventFrame("ev_card", "card")],
    (client, atOpen) => hookWsClient(client, { onOpen: atOpen }),
  );
  assert.deepEqual(seen, ["ev_card", "later"]);
  assert.deepEqual(
    emu.ws.unmatchedAcks().map((a) => [a.frameId, a.code, a.data]),
    [["frame_ev_card", 200, { toast: { type: "info", content: "ok" } }]],
  );
});

Deno.test("hookWsClient() is needed: the bare SDK drops a type=card frame without an ACK", async () => {
  await using emu = await startEmulator();
  const seen = await firstInstant(emu, [eventFrame("ev_card", "card")], bareAtOpen);
  assert.deepEqual(seen, ["later"]);
  assert.deepEqual(emu.ws.unmatchedAcks(), []);
});

Deno.test("hookWsClient() calls onPing for each ping and beforeConnect with the endpoint URL", async () => {
  await using emu = await startEmulator();
  const urls: string[] = [];
  let pings = 0;
  const client = new lark.WSClient({
    appId: D.appId,
    appSecret: D.appSecret,
    domain: emu.url,
    logger: quiet,
    loggerLevel: lark.LoggerLevel.error,
  });
  hookWsClient(client, {
    onPing: () => void pings++,
    beforeConnect: (url) => void urls.push(url),
  });
  try {
    void client.start({ eventDispatcher: { invoke: () => undefined } as never });
    const session = await emu.ws.whenReady();
    assert.ok(pings >= 1);
    assert.equal(urls.length, 1);
    assert.ok(urls[0]?.includes(`device_id=${session.session_id}`));
  } finally {
    client.close({ force: true });
  }
});
