import assert from "node:assert/strict";
import {
  decodeFrame,
  DEFAULT_IDS,
  type Emulator,
  encodeFrame,
  type Frame,
  startEmulator,
} from "../mod.ts";

const D = DEFAULT_IDS;
const enc = new TextEncoder();
const dec = new TextDecoder();

/** A bare WebSocket client speaking pbbp2, to check the wire format itself. */
async function rawClient(emu: Emulator) {
  const res = await fetch(`${emu.url}/callback/ws/endpoint`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ AppID: D.appId, AppSecret: D.appSecret }),
  });
  const body = await res.json() as {
    code: number;
    data: { URL: string; ClientConfig: Record<string, number> };
  };
  const socket = new WebSocket(body.data.URL);
  socket.binaryType = "arraybuffer";
  const frames: Frame[] = [];
  const waiters: (() => void)[] = [];
  socket.onmessage = (e) => {
    frames.push(decodeFrame(new Uint8Array(e.data as ArrayBuffer)));
    for (const w of waiters.splice(0)) w();
  };
  await new Promise((r) => (socket.onopen = r));
  const next = async (n: number): Promise<Frame> => {
    while (frames.length < n) await new Promise<void>((r) => waiters.push(r));
    return frames[n - 1]!;
  };
  const close = async () => {
    const closed = new Promise((r) => (socket.onclose = r));
    socket.close();
    await closed;
  };
  return { body, socket, next, close };
}

const header = (f: Frame, k: string) => f.headers.find((h) => h.key === k)?.value;

Deno.test("WS endpoint answers a full ClientConfig and a URL with device_id and service_id after fpid", async () => {
  await using emu = await startEmulator({ clientConfig: { ReconnectInterval: 5 } });
  const c = await rawClient(emu);
  try {
    assert.equal(c.body.code, 0);
    assert.deepEqual(c.body.data.ClientConfig, {
      PingInterval: 1,
      ReconnectCount: -1,
      ReconnectInterval: 5,
      ReconnectNonce: 0,
    });
    const keys = [...new URL(c.body.data.URL).searchParams.keys()];
    assert.deepEqual(keys, ["fpid", "aid", "device_id", "access_key", "service_id", "ticket"]);
  } finally {
    await c.close();
  }
});

Deno.test("WS session answers every ping with a full-config pong and marks itself ready", async () => {
  await using emu = await startEmulator();
  const c = await rawClient(emu);
  try {
    const service = Number(new URL(c.body.data.URL).searchParams.get("service_id"));
    const ping = {
      SeqID: 0,
      LogID: 0,
      service,
      method: 0,
      headers: [{ key: "type", value: "ping" }],
    };
    c.socket.send(encodeFrame(ping));
    const pong = await c.next(1);
    assert.deepEqual([pong.method, pong.service, header(pong, "type")], [0, service, "pong"]);
    assert.deepEqual(JSON.parse(dec.decode(pong.payload)), { ...emu.settings.clientConfig });
    emu.ws.setClientConfig({ PingInterval: 9 });
    c.socket.send(encodeFrame(ping));
    assert.equal(JSON.parse(dec.decode((await c.next(2)).payload)).PingInterval, 9);
    assert.equal(emu.ws.status()[0]?.ready, true);
    assert.equal(emu.ws.status()[0]?.pings, 2);
  } finally {
    await c.close();
  }
});

Deno.test("WS data frames carry type, message_id, sum, seq and trace_id, and a negative biz_rt ACK is accepted", async () => {
  await using emu = await startEmulator();
  const c = await rawClient(emu);
  try {
    const service = Number(new URL(c.body.data.URL).searchParams.get("service_id"));
    c.socket.send(
      encodeFrame({
        SeqID: 0,
        LogID: 0,
        service,
        method: 0,
        headers: [{ key: "type", value: "ping" }],
      }),
    );
    await c.next(1);
    const sent = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "raw" });
    const frame = await c.next(2);
    assert.equal(frame.method, 1);
    assert.ok(frame.SeqID > 0);
    assert.deepEqual(frame.headers.map((h) => h.key), [
      "type",
      "message_id",
      "sum",
      "seq",
      "trace_id",
    ]);
    assert.deepEqual([header(frame, "type"), header(frame, "sum"), header(frame, "seq")], [
      "event",
      "1",
      "0",
    ]);
    const envelope = JSON.parse(dec.decode(frame.payload));
    assert.equal(envelope.header.event_id, sent.eventId);
    const data = btoa(JSON.stringify({ toast: { content: "hi" } }));
    c.socket.send(encodeFrame({
      ...frame,
      headers: [...frame.headers, { key: "biz_rt", value: "-3" }],
      payload: enc.encode(JSON.stringify({ code: 200, data })),
    }));
    const ack = await sent.ack;
    assert.deepEqual(ack.data, { toast: { content: "hi" } });
    assert.equal(ack.bizRt, "-3");
    assert.equal(ack.frameId, header(frame, "message_id"));
  } finally {
    await c.close();
  }
});

Deno.test("WS upgrade refuses a reused ticket with 403 and handshake headers", async () => {
  await using emu = await startEmulator();
  const c = await rawClient(emu);
  try {
    const res = await emu.handle(
      new Request(c.body.data.URL.replace("ws://", "http://"), {
        headers: { upgrade: "websocket" },
      }),
    );
    assert.equal(res.status, 403);
    assert.equal(res.headers.get("handshake-status"), "403");
  } finally {
    await c.close();
  }
});

Deno.test("WS session records a text frame from the client as an error and stays open", async () => {
  await using emu = await startEmulator();
  const c = await rawClient(emu);
  try {
    c.socket.send("not a frame");
    await emu.waitFor(() => emu.errors().length > 0);
    assert.match(emu.errors()[0]?.message ?? "", /binary frame/);
    assert.equal(emu.ws.status()[0]?.closed, false);
  } finally {
    await c.close();
  }
});
