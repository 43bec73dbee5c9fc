import assert from "node:assert/strict";
import { DEFAULT_IDS, startEmulator } from "../../emulator/mod.ts";
import { connectTo, type Harness } from "./testdata/connection_harness.ts";

const D = DEFAULT_IDS;
const ENDPOINT = "/callback/ws/endpoint";

/** Waits for the wrapper's backoff, then moves the clock to its end; returns the delay. */
async function runBackoff(h: Harness): Promise<number> {
  const s = await h.waitStatus((x) => x.nextRetryAt !== null);
  const delay = (s.nextRetryAt ?? 0) - h.clock.now();
  h.clock.advance(delay);
  return delay;
}

Deno.test("startLongConnection() reconnects after a server-side drop and reports onConnected({reconnect: true})", async () => {
  for (const graceful of [true, false]) {
    await using emu = await startEmulator();
    await using h = connectTo(emu);
    await h.waitConnected(1);
    assert.equal(emu.ws.drop({ graceful }), 1);
    assert.deepEqual(await h.waitConnected(2), { reconnect: true, downtimeMs: 0 });
    const s = h.conn.status();
    assert.deepEqual([s.state, s.connects, s.reconnects], ["connected", 2, 1]);
    const ack = await emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "back" }).ack;
    assert.equal(ack.code, 200);
    assert.equal(ack.sessionId, emu.ws.status()[1]?.session_id);
    assert.ok(h.statuses.some((x) => x.state === "reconnecting"), `graceful=${graceful}`);
  }
});

Deno.test("startLongConnection() watchdog restarts a connection that stays silent for 3 ping intervals, not one that talks", async () => {
  await using emu = await startEmulator();
  await using h = connectTo(emu, { pingTimeoutSec: 0 });
  await h.waitConnected(1);
  // The loop restarts at the connection: the first check is due one server
  // ping interval (1 s here), not the SDK's default 120 s.
  await emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "fresh frame" }).ack;
  h.clock.advance(1_000); // check: 1 s since the last frame
  await emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "still here" }).ack;
  assert.deepEqual([h.conn.status().connects, h.conn.status().lastError], [1, null]);

  emu.ws.setSilent(true);
  h.clock.advance(3_001); // the next check (1 s ping interval now) sees 3.001 s of silence
  assert.deepEqual(await h.waitConnected(2), { reconnect: true, downtimeMs: 0 });
  const s = h.conn.status();
  assert.match(s.lastError ?? "", /no frame for 3 s \(3 ping intervals of 1 s\)/);
  assert.deepEqual([s.state, s.connects, s.reconnects], ["connected", 2, 1]);
  const [silent, fresh] = emu.ws.status();
  assert.deepEqual([silent?.silent, silent?.closed, fresh?.closed], [true, true, false]);
  const ack = await emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "heard" }).ack;
  assert.equal(ack.sessionId, fresh?.session_id);
});

Deno.test("startLongConnection() passes pingTimeout to the SDK, which drops a silent socket on its own", async () => {
  await using emu = await startEmulator();
  await using h = connectTo(emu, { pingTimeoutSec: 1 });
  await h.waitConnected(1);
  emu.ws.setSilent(true);
  assert.equal((await h.waitConnected(2)).reconnect, true);
  assert.equal(emu.ws.status()[0]?.closed, true);
});

Deno.test("startLongConnection() keeps restarting after fatal endpoint codes, with growing jittered backoff", async () => {
  await using emu = await startEmulator();
  emu.ws.refuseEndpoint({ code: 403, times: 3, msg: "forbidden" });
  await using h = connectTo(emu);
  const delays = [];
  for (let i = 0; i < 3; i++) {
    delays.push(await runBackoff(h));
    assert.equal(h.statuses.at(-1)?.state, "connecting");
  }
  assert.deepEqual(delays, [750, 1_500, 3_000]);
  assert.deepEqual(await h.waitConnected(1), { reconnect: false, downtimeMs: 5_250 });
  assert.match(h.conn.status().lastError ?? "", /code=403/);
  assert.deepEqual(emu.requests({ path: ENDPOINT }).map((r) => r.code), [403, 403, 403, 0]);
});

Deno.test("startLongConnection() restarts an SDK that exhausted a small ReconnectCount and recovers", async () => {
  await using emu = await startEmulator({ clientConfig: { ReconnectCount: 1 } });
  await using h = connectTo(emu);
  await h.waitConnected(1);
  emu.ws.refuseEndpoint({ code: 1000040343, times: 2 });
  emu.ws.drop();
  assert.equal(await runBackoff(h), 750);
  assert.match(h.conn.status().lastError ?? "", /reconnect exhausted after 1 attempts/);
  assert.equal(h.conn.status().state, "reconnecting");
  assert.deepEqual(await h.waitConnected(2), { reconnect: true, downtimeMs: 750 });
  assert.deepEqual(
    emu.requests({ path: ENDPOINT }).map((r) => r.code),
    [0, 1000040343, 1000040343, 0],
  );
  const ack = await emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "again" }).ack;
  assert.equal(ack.code, 200);
});

Deno.test("startLongConnection() shows a 514 auth failure as failed, retries it slowly, and recovers", async () => {
  await using emu = await startEmulator();
  emu.ws.refuseEndpoint({ code: 514, times: 1 });
  await using h = connectTo(emu);
  const s = await h.waitStatus((x) => x.nextRetryAt !== null);
  assert.equal(s.state, "failed");
  assert.match(s.lastError ?? "", /code 514.*app_id and app_secret of account main/);
  assert.ok(h.logs.some((l) => l.includes(" ERROR ") && l.includes("514")));
  assert.equal(await runBackoff(h), 225_000);
  assert.equal((await h.waitConnected(1)).reconnect, false);
  assert.equal(h.conn.status().state, "connected");
});
