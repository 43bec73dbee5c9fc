import assert from "node:assert/strict";
import { DEFAULT_IDS, startEmulator } from "../../emulator/mod.ts";
import { createFeishuApi } from "../client.ts";
import { createLogger } from "../../core/mod.ts";
import { connectTo } from "./testdata/connection_harness.ts";

const D = DEFAULT_IDS;

Deno.test("startLongConnection() hands the raw v2 envelope to onEvent and ACKs with its value", async () => {
  await using emu = await startEmulator();
  await using h = connectTo(emu, { onEvent: () => Promise.resolve({ stored: true }) });
  await h.waitConnected(1);
  const sent = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "hello" });
  const ack = await sent.ack;
  assert.equal(ack.code, 200);
  assert.deepEqual(ack.data, { stored: true });
  assert.equal(h.envelopes.length, 1);
  const env = h.envelopes[0] as { schema: string; header: Record<string, unknown>; event: unknown };
  assert.deepEqual(Object.keys(env).sort(), ["event", "header", "schema"]);
  assert.equal(env.schema, "2.0");
  assert.equal(env.header.event_id, sent.eventId);
  assert.equal(env.header.event_type, "im.message.receive_v1");
  assert.deepEqual(env, emu.event(sent.eventId)?.envelope);
  assert.notEqual(h.conn.status().lastEventAt, null);
});

Deno.test("startLongConnection() ACKs code 200 without data when onEvent resolves undefined, 500 when it throws", async () => {
  await using emu = await startEmulator();
  let fail = false;
  await using h = connectTo(emu, {
    onEvent: () => fail ? Promise.reject(new Error("disk full")) : Promise.resolve(undefined),
  });
  await h.waitConnected(1);
  const ok = await emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "a" }).ack;
  assert.deepEqual([ok.code, ok.rawData], [200, undefined]);
  fail = true;
  const bad = await emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "b" }).ack;
  assert.equal(bad.code, 500);
});

Deno.test("startLongConnection() returns a card callback's toast in the ACK", async () => {
  await using emu = await startEmulator();
  const log = createLogger({ sink: () => {} });
  const api = createFeishuApi({
    alias: "main",
    appId: D.appId,
    appSecret: D.appSecret,
    baseUrl: emu.url,
    log,
    proxyEnv: { get: () => undefined },
  });
  const card = await api.createMessage({
    receiveId: D.aliceP2p,
    receiveIdType: "chat_id",
    msgType: "interactive",
    content: JSON.stringify({ schema: "2.0", body: { elements: [] } }),
  });
  await using h = connectTo(emu, {
    onEvent: (e) =>
      Promise.resolve(
        (e.header as { event_type?: string }).event_type === "card.action.trigger"
          ? { toast: { type: "success", content: "Approved" } }
          : undefined,
      ),
  });
  await h.waitConnected(1);
  const click = emu.clickCard({ user: D.alice.openId, messageId: card.messageId, value: { k: 1 } });
  const result = await click.result;
  assert.equal(result.ackCode, 200);
  assert.deepEqual(result.toast, { type: "success", content: "Approved" });
  const env = h.envelopes.at(-1) as { header: { event_type: string }; event: { action: unknown } };
  assert.equal(env.header.event_type, "card.action.trigger");
  assert.deepEqual((env.event.action as { value: unknown }).value, { k: 1 });
});

Deno.test("startLongConnection() status goes connecting → connected → closed and holds no secrets", async () => {
  await using emu = await startEmulator();
  const h = connectTo(emu);
  const first = h.conn.status();
  assert.equal(first.state, "connecting");
  assert.equal(first.connects, 0);
  const info = await h.waitConnected(1);
  assert.deepEqual(info, { reconnect: false, downtimeMs: 0 });
  await emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "x" }).ack;
  const s = h.conn.status();
  assert.equal(s.lastPingAt, h.clock.now());
  assert.equal(s.lastFrameAt, h.clock.now());
  assert.equal(s.lastEventAt, h.clock.now());
  assert.equal(s.state, "connected");
  assert.equal(s.connects, 1);
  assert.equal(s.reconnects, 0);
  assert.equal(s.lastError, null);
  assert.equal(s.endpointHost, new URL(emu.url).host);
  assert.equal(s.proxy, null);
  assert.equal(s.nextRetryAt, null);
  const text = JSON.stringify(s) + h.logs.join("\n");
  for (const secret of ["access_key", "ticket=", D.appSecret, "ak_emu_", "tk_emu_"]) {
    assert.ok(!text.includes(secret), `status and logs must not contain ${secret}`);
  }
  assert.ok(
    h.logs.some((l) => l.includes("ws url")),
    "the SDK logged the endpoint (without query)",
  );
  await h.conn.close();
  assert.equal(h.conn.status().state, "closed");
  await h.conn.close();
});

Deno.test("startLongConnection() rejects an app id the SDK would silently ignore", () => {
  assert.throws(
    () => connectTo({ url: "http://127.0.0.1:9" } as never, { appId: "cli_short" }),
    /cli_ \+ 16 hex/,
  );
});

Deno.test("startLongConnection() receives events queued before it connected, at the emulator's first moment", async () => {
  await using emu = await startEmulator();
  const early = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "while offline" });
  assert.equal(emu.event(early.eventId)?.status, "queued");
  await using h = connectTo(emu);
  assert.equal((await early.ack).code, 200);
  assert.deepEqual(h.envelopes.map((e) => (e.header as { event_id: string }).event_id), [
    early.eventId,
  ]);
});
