import assert from "node:assert/strict";
import { codeOf, sdkClient } from "./testdata/sdk_harness.ts";
import { DEFAULT_IDS as D, startEmulator } from "./mod.ts";

const text = (t: string) => JSON.stringify({ text: t });

Deno.test("dissolveChat pushes im.chat.disbanded_v1 and every later chat operation fails with 230045", async () => {
  await using emu = await startEmulator();
  const client = sdkClient(emu);
  const before = await client.im.v1.message.create({
    params: { receive_id_type: "chat_id" },
    data: { receive_id: D.team, msg_type: "text", content: text("before") },
  });
  const told = emu.dissolveChat({ chat: D.team, operator: D.alice.openId });
  assert.equal(told.length, 1);
  const event = emu.event(told[0]!.eventId);
  assert.equal(event?.eventType, "im.chat.disbanded_v1");
  const body = event?.envelope.event as Record<string, unknown>;
  assert.equal(body.chat_id, D.team);
  assert.deepEqual((body.operator_id as Record<string, unknown>).open_id, D.alice.openId);
  assert.equal(emu.world.chats.get(D.team)?.bots.size, 0);
  assert.equal(
    await codeOf(client.im.v1.message.create({
      params: { receive_id_type: "chat_id" },
      data: { receive_id: D.team, msg_type: "text", content: text("after") },
    })),
    230045,
  );
  assert.equal(
    await codeOf(client.im.v1.message.reply({
      path: { message_id: before.data?.message_id ?? "" },
      data: { msg_type: "text", content: text("reply") },
    })),
    230045,
  );
  assert.equal(await codeOf(client.im.v1.chat.get({ path: { chat_id: D.team } })), 230045);
  assert.throws(
    () => emu.userSends({ user: D.alice.openId, chat: D.team, text: "hi" }),
    /dissolved/,
  );
  assert.throws(() => emu.dissolveChat({ chat: D.team, operator: D.alice.openId }), /dissolved/);
  assert.throws(() => emu.dissolveChat({ chat: D.aliceP2p, operator: D.alice.openId }), /p2p/);
});
