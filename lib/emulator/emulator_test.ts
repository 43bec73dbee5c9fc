import assert from "node:assert/strict";
import { sdkClient, startWs } from "./testdata/sdk_harness.ts";
import { DEFAULT_IDS, ManualEmuClock, startEmulator } from "./mod.ts";
import { createEmulator } from "./emulator.ts";

const D = DEFAULT_IDS;

Deno.test("startEmulator() serves the node-sdk Client: token, bot info and a send round trip", async () => {
  await using emu = await startEmulator();
  const client = sdkClient(emu);
  const info = await client.request({ url: "/open-apis/bot/v3/info", method: "GET" }) as {
    bot: { open_id: string; app_name: string };
  };
  assert.equal(info.bot.open_id, D.botOpenId);
  assert.equal(info.bot.app_name, D.botName);
  const sent = await client.im.v1.message.create({
    params: { receive_id_type: "chat_id" },
    data: { receive_id: D.team, msg_type: "text", content: JSON.stringify({ text: "hello" }) },
  });
  assert.equal(sent.code, 0);
  assert.equal(sent.data?.chat_id, D.team);
  assert.equal(emu.lastSent(D.team)?.messageId, sent.data?.message_id);
  const tokenCalls = emu.requests({ path: "/open-apis/auth/v3/tenant_access_token/internal" });
  assert.equal(tokenCalls.length, 1);
  assert.match(
    String(emu.requests({ path: "/open-apis/im/v1/messages" })[0]?.headers.authorization),
    /^Bearer t-/,
  );
});

Deno.test("startEmulator() delivers an event to the node-sdk WSClient and records its ACK", async () => {
  await using emu = await startEmulator();
  await using ws = startWs(emu, { "im.message.receive_v1": () => undefined });
  await emu.ws.whenReady();
  const sent = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "hi bot" });
  const ack = await sent.ack;
  assert.equal(ack.code, 200);
  assert.equal(ws.seen.length, 1);
  const data = ws.seen[0]?.data as {
    event_id: string;
    message: { message_id: string; chat_type: string };
  };
  assert.equal(data.event_id, sent.eventId);
  assert.equal(data.message.message_id, sent.messageId);
  assert.equal(data.message.chat_type, "p2p");
  assert.equal(emu.event(sent.eventId)?.status, "acked");
});

Deno.test("waitFor() rejects on its timeout (emulator clock) and when the emulator closes", async () => {
  const clock = new ManualEmuClock();
  const emu = createEmulator({ clock });
  const timedOut = emu.waitFor(() => false, { timeoutMs: 50, description: "nothing" });
  clock.advance(50);
  await assert.rejects(timedOut, /Expected nothing within 50 ms/);
  const pending = emu.waitFor(() => false);
  await emu.close();
  await assert.rejects(pending, /closed/);
  assert.equal(clock.pending(), 0);
});
