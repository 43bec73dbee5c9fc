import assert from "node:assert/strict";
import { DEFAULT_IDS, startEmulator } from "../../emulator/mod.ts";
import { startTestProxy } from "../testdata/recording_proxy.ts";
import { proxyEnvOf } from "../proxy.ts";
import { connectTo } from "./testdata/connection_harness.ts";

const D = DEFAULT_IDS;

Deno.test("startLongConnection() tunnels the WS through HTTP_PROXY with CONNECT and pulls the endpoint through it", async () => {
  await using emu = await startEmulator();
  await using proxy = startTestProxy();
  const host = new URL(emu.url).host;
  await using h = connectTo(emu, { proxyEnv: proxyEnvOf({ HTTP_PROXY: `${proxy.url}/` }) });
  await h.waitConnected(1);
  assert.equal(h.conn.status().proxy, proxy.url);
  const ack = await emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "tunnelled" })
    .ack;
  assert.equal(ack.code, 200);
  emu.ws.drop();
  await h.waitConnected(2);
  assert.deepEqual(proxy.seen, [
    `POST ${emu.url}/callback/ws/endpoint HTTP/1.1`,
    `CONNECT ${host} HTTP/1.1`,
    `POST ${emu.url}/callback/ws/endpoint HTTP/1.1`,
    `CONNECT ${host} HTTP/1.1`,
  ]);
});

Deno.test("startLongConnection() connects directly when NO_PROXY names the host", async () => {
  await using emu = await startEmulator();
  await using proxy = startTestProxy();
  await using h = connectTo(emu, {
    proxyEnv: proxyEnvOf({ HTTP_PROXY: proxy.url, NO_PROXY: "example.com, 127.0.0.1" }),
  });
  await h.waitConnected(1);
  const ack = await emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "direct" }).ack;
  assert.equal(ack.code, 200);
  assert.equal(h.conn.status().proxy, null);
  assert.deepEqual(proxy.seen, []);
});

Deno.test("startLongConnection() refuses to start with a proxy it cannot use", async () => {
  await using emu = await startEmulator();
  assert.throws(
    () => connectTo(emu, { proxyEnv: proxyEnvOf({ HTTPS_PROXY: "socks5://127.0.0.1:1080" }) }),
    /HTTPS_PROXY to use http:\/\/ or https:\/\//,
  );
});
