import assert from "node:assert/strict";
import { startWs } from "../testdata/sdk_harness.ts";
import { DEFAULT_IDS, encodeFrame, startEmulator } from "../mod.ts";

const D = DEFAULT_IDS;
const noop = () => undefined;

Deno.test("WS drop: the node-sdk reconnects after a graceful or abrupt close and gets the queued event", async () => {
  for (const graceful of [true, false]) {
    await using emu = await startEmulator();
    await using ws = startWs(emu, { "im.message.receive_v1": noop });
    await emu.ws.whenReady();
    assert.equal(emu.ws.drop({ graceful }), 1);
    const sent = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "while away" });
    assert.equal((await sent.ack).code, 200, `graceful=${graceful}`);
    const status = emu.ws.status();
    assert.equal(status.length, 2);
    assert.equal(status[0]?.closed, true);
    assert.equal(emu.event(sent.eventId)?.attempts[0]?.sessionId, status[1]?.session_id);
    assert.equal(ws.seen.length, 1);
  }
});

Deno.test("WS endpoint: bad credentials and a 514 refusal are fatal for the node-sdk", async () => {
  await using emu = await startEmulator();
  await using bad = startWs(emu, {}, { appSecret: "wrong" });
  assert.match((await bad.firstError).message, /code=514/);
  emu.ws.refuseEndpoint({ code: 514, times: 1 });
  await using refused = startWs(emu, {});
  assert.match((await refused.firstError).message, /code=514/);
  assert.equal(emu.ws.status().length, 0);
});

Deno.test("WS endpoint: a 1000040343 refusal on reconnect is retried until the client connects", async () => {
  await using emu = await startEmulator();
  await using _ws = startWs(emu, { "im.message.receive_v1": noop });
  await emu.ws.whenReady();
  emu.ws.refuseEndpoint({ code: 1000040343, times: 1 });
  emu.ws.refuseUpgrade({ status: 403, times: 1, headers: { "handshake-status": "403" } });
  emu.ws.drop();
  const sent = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "after retries" });
  assert.equal((await sent.ack).code, 200);
  const pulls = emu.requests({ path: "/callback/ws/endpoint" });
  assert.deepEqual(pulls.map((r) => r.code), [0, 1000040343, 0, 0]);
});

Deno.test("WS silent socket: no pongs and no events until the client's ping timeout reconnects", async () => {
  await using emu = await startEmulator();
  await using ws = startWs(emu, { "im.message.receive_v1": noop }, { pingTimeout: 1 });
  await emu.ws.whenReady();
  emu.ws.setSilent(true);
  const sent = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "zombie" });
  assert.equal(emu.event(sent.eventId)?.status, "queued");
  assert.equal((await sent.ack).code, 200);
  const [first, second] = emu.ws.status();
  assert.equal(first?.silent, true);
  assert.equal(first?.closed, true);
  assert.equal(emu.event(sent.eventId)?.attempts[0]?.sessionId, second?.session_id);
  assert.equal(ws.seen.length, 1);
});

Deno.test("WS frames of type card and malformed frames are ignored by the node-sdk without an ACK", async () => {
  await using emu = await startEmulator();
  await using ws = startWs(emu, { "im.message.receive_v1": noop, "card.action.trigger": noop });
  await emu.ws.whenReady();
  emu.ws.sendCardFrame();
  assert.equal(emu.ws.sendRaw(new Uint8Array([0x2a, 0x00])), 1);
  emu.ws.sendRaw(encodeFrame({
    SeqID: 1,
    LogID: 1,
    service: 1,
    method: 1,
    headers: [{ key: "type", value: "event" }, { key: "message_id", value: "x" }, {
      key: "sum",
      value: "0",
    }],
    payload: new TextEncoder().encode("{}"),
  }));
  const sent = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "still alive" });
  assert.equal((await sent.ack).code, 200);
  assert.deepEqual(emu.ws.unmatchedAcks(), []);
  assert.deepEqual(ws.seen.map((s) => s.type), ["im.message.receive_v1"]);
  assert.equal(emu.ws.status().length, 1);
});
