/**
 * Emulator throughput, each figure beside a baseline measured in the same
 * run: events/s delivered to and ACKed by a node-sdk WSClient (baseline: a
 * bare WebSocket server pushing pre-encoded frames), and messages/s created
 * through the node-sdk Client (baseline: a bare `Deno.serve` answering a
 * canned response). Run: `deno run -A bench/emulator_bench.ts`.
 * @module
 */

import type { BenchResult } from "./_types.ts";
import * as lark from "@larksuiteoapi/node-sdk";
import {
  decodeFrame,
  DEFAULT_IDS,
  encodeFrame,
  type Frame,
  startEmulator,
} from "../lib/emulator/mod.ts";

const D = DEFAULT_IDS;
const EVENTS = 1500;
const MESSAGES = 600;
const CONCURRENCY = 8;
const silent = { error() {}, warn() {}, info() {}, debug() {}, trace() {} };
const enc = new TextEncoder();

function client(domain: string): lark.Client {
  const values = new Map<string, unknown>();
  return new lark.Client({
    appId: D.appId,
    appSecret: D.appSecret,
    domain,
    logger: silent,
    loggerLevel: lark.LoggerLevel.error,
    cache: {
      get: (key) => Promise.resolve(values.get(String(key))),
      set: (key, value) => Promise.resolve(values.set(String(key), value) && true),
    },
  });
}

function wsClient(domain: string, onEvent: () => void): lark.WSClient {
  const dispatcher = new lark.EventDispatcher({
    logger: silent,
    loggerLevel: lark.LoggerLevel.error,
  })
    .register({ "im.message.receive_v1": () => void onEvent() } as never);
  const ws = new lark.WSClient({
    appId: D.appId,
    appSecret: D.appSecret,
    domain,
    logger: silent,
    loggerLevel: lark.LoggerLevel.error,
  });
  void ws.start({ eventDispatcher: dispatcher });
  return ws;
}

async function timed(fn: () => Promise<void>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return (performance.now() - t0) / 1000;
}

async function inParallel(n: number, fn: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < n) await fn(next++);
  }));
}

async function emulatorEvents(): Promise<number> {
  await using emu = await startEmulator();
  const ws = wsClient(emu.url, () => {});
  try {
    await emu.ws.whenReady();
    const seconds = await timed(async () => {
      const acks = [];
      for (let i = 0; i < EVENTS; i++) {
        acks.push(
          emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: `event ${i}` }).ack,
        );
      }
      await Promise.all(acks);
    });
    return EVENTS / seconds;
  } finally {
    ws.close({ force: true });
  }
}

/** A bare long-connection server: canned endpoint, pongs, pre-encoded frames, ACK counting. */
async function bareEvents(): Promise<number> {
  const sample = await (async () => {
    await using emu = await startEmulator();
    emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "event 0" });
    return JSON.stringify(emu.events()[0]?.envelope);
  })();
  const frames = Array.from({ length: EVENTS }, (_, i) =>
    encodeFrame({
      SeqID: i + 1,
      LogID: i + 1,
      service: 1,
      method: 1,
      headers: [
        { key: "type", value: "event" },
        { key: "message_id", value: `m${i}` },
        { key: "sum", value: "1" },
        { key: "seq", value: "0" },
        { key: "trace_id", value: `t${i}` },
      ],
      payload: enc.encode(sample.replace(/ev_emu_0001/, `ev_${i}`)),
    }));
  const ready = Promise.withResolvers<WebSocket>();
  const done = Promise.withResolvers<void>();
  let acked = 0;
  const pong = encodeFrame({
    SeqID: 0,
    LogID: 0,
    service: 1,
    method: 0,
    headers: [{ key: "type", value: "pong" }],
    payload: enc.encode(
      JSON.stringify({
        PingInterval: 1,
        ReconnectCount: -1,
        ReconnectInterval: 1,
        ReconnectNonce: 0,
      }),
    ),
  });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/callback/ws/endpoint") {
      return Response.json({
        code: 0,
        data: {
          URL: `ws://${url.host}/ws?fpid=1&device_id=1&service_id=1&ticket=x`,
          ClientConfig: {
            PingInterval: 1,
            ReconnectCount: -1,
            ReconnectInterval: 1,
            ReconnectNonce: 0,
          },
        },
      });
    }
    const { socket, response } = Deno.upgradeWebSocket(req);
    socket.binaryType = "arraybuffer";
    socket.onmessage = (e) => {
      const frame: Frame = decodeFrame(new Uint8Array(e.data as ArrayBuffer));
      if (frame.method === 0) {
        socket.send(pong);
        ready.resolve(socket);
      } else if (++acked === EVENTS) done.resolve();
    };
    return response;
  });
  const ws = wsClient(`http://127.0.0.1:${server.addr.port}`, () => {});
  try {
    const socket = await ready.promise;
    const seconds = await timed(async () => {
      for (const f of frames) socket.send(f);
      await done.promise;
    });
    return EVENTS / seconds;
  } finally {
    ws.close({ force: true });
    await server.shutdown();
  }
}

async function creates(domain: string): Promise<number> {
  const c = client(domain);
  await c.im.v1.message.create({
    params: { receive_id_type: "chat_id" },
    data: { receive_id: D.team, msg_type: "text", content: JSON.stringify({ text: "warm up" }) },
  });
  const seconds = await timed(() =>
    inParallel(MESSAGES, (i) =>
      c.im.v1.message.create({
        params: { receive_id_type: "chat_id" },
        data: { receive_id: D.team, msg_type: "text", content: JSON.stringify({ text: `m ${i}` }) },
      }))
  );
  return MESSAGES / seconds;
}

async function emulatorCreates(): Promise<number> {
  await using emu = await startEmulator();
  return await creates(emu.url);
}

async function bareCreates(): Promise<number> {
  const canned = JSON.stringify({
    code: 0,
    msg: "success",
    data: { message_id: "om_1", chat_id: D.team, msg_type: "text", body: { content: "{}" } },
  });
  const token = JSON.stringify({ code: 0, msg: "ok", tenant_access_token: "t-1", expire: 7200 });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    await req.arrayBuffer();
    const body = new URL(req.url).pathname.includes("tenant_access_token") ? token : canned;
    return new Response(body, { headers: { "content-type": "application/json" } });
  });
  try {
    return await creates(`http://127.0.0.1:${server.addr.port}`);
  } finally {
    await server.shutdown();
  }
}

function result(
  name: string,
  unit: string,
  value: number,
  baseline: number,
  note: string,
): BenchResult {
  return {
    name,
    unit,
    value: Math.round(value),
    baseline: Math.round(baseline),
    ratio: Math.round((value / baseline) * 100) / 100,
    note,
  };
}

/** Runs every measurement (about 10 s on two cores). */
export async function run(): Promise<BenchResult[]> {
  const baseEvents = await bareEvents();
  const emuEvents = await emulatorEvents();
  const baseCreates = await bareCreates();
  const emuCreates = await emulatorCreates();
  return [
    result(
      "emulator.events_acked",
      "events/s",
      emuEvents,
      baseEvents,
      `${EVENTS} receive_v1 events to a node-sdk WSClient; baseline: bare WS server with pre-encoded frames`,
    ),
    result(
      "emulator.messages_created",
      "messages/s",
      emuCreates,
      baseCreates,
      `${MESSAGES} message.create calls, ${CONCURRENCY} in flight; baseline: bare Deno.serve canned answer`,
    ),
  ];
}

if (import.meta.main) {
  for (const r of await run()) {
    // A bench prints its results; stdout carries nothing else here.
    // deno-lint-ignore no-console
    console.log(
      `${r.name}: ${r.value} ${r.unit} (baseline ${r.baseline}, ratio ${r.ratio}) — ${r.note}`,
    );
  }
}
