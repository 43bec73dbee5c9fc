import assert from "node:assert/strict";
import { codeOf, sdkClient } from "../testdata/sdk_harness.ts";
import { DEFAULT_IDS, startEmulator } from "../mod.ts";

const D = DEFAULT_IDS;
const text = (t: string) => JSON.stringify({ text: t });

Deno.test("message.update edits own text/post messages up to the edit cap", async () => {
  await using emu = await startEmulator({ limits: { editCount: 2 } });
  const client = sdkClient(emu);
  const sent = (await client.im.v1.message.create({
    params: { receive_id_type: "chat_id" },
    data: { receive_id: D.team, msg_type: "text", content: text("v0") },
  })).data!;
  const edit = (content: string, msgType = "text", id = sent.message_id!) =>
    client.im.v1.message.update({ path: { message_id: id }, data: { msg_type: msgType, content } });
  const r1 = await edit(text("v1"));
  assert.equal(r1.data?.updated, true);
  assert.equal(r1.data?.body?.content, text("v1"));
  assert.equal(await codeOf(edit(JSON.stringify({ zh_cn: { content: [] } }), "post")), 230001);
  assert.equal(await codeOf(edit(text("v2"))), 0);
  assert.equal(await codeOf(edit(text("v3"))), 230072);
  assert.equal(emu.world.messages.get(sent.message_id!)?.editCount, 2);
  const user = emu.userSends({ user: D.alice.openId, chat: D.team, text: "mine" });
  assert.equal(await codeOf(edit(text("x"), "text", user.messageId)), 230012);
  const card = (await client.im.v1.message.create({
    params: { receive_id_type: "chat_id" },
    data: {
      receive_id: D.team,
      msg_type: "interactive",
      content: JSON.stringify({ elements: [] }),
    },
  })).data!;
  assert.equal(await codeOf(edit(text("x"), "text", card.message_id)), 230001);
});

Deno.test("message.patch replaces card content and refuses other message types", async () => {
  await using emu = await startEmulator();
  const client = sdkClient(emu);
  const card = (t: string) =>
    JSON.stringify({ schema: "2.0", body: { elements: [{ tag: "markdown", content: t }] } });
  const sent = (await client.im.v1.message.create({
    params: { receive_id_type: "chat_id" },
    data: { receive_id: D.team, msg_type: "interactive", content: card("a") },
  })).data!;
  const patched = await client.im.v1.message.patch({
    path: { message_id: sent.message_id! },
    data: { content: card("b") },
  });
  assert.equal(patched.code, 0);
  assert.equal(emu.world.messages.get(sent.message_id!)?.content, card("b"));
  assert.equal(emu.world.messages.get(sent.message_id!)?.updated, true);
  assert.equal(emu.world.messages.get(sent.message_id!)?.editCount, 0);
  const page = await emu.handle(new Request(`http://x/__emu/api/chats/${D.team}/messages`));
  const shown = (await page.json()).items.find((m: { message_id: string }) =>
    m.message_id === sent.message_id
  );
  assert.deepEqual(shown.content, JSON.parse(card("b")));
  assert.equal(shown.updated, true);
  assert.equal(
    await codeOf(
      client.im.v1.message.patch({
        path: { message_id: sent.message_id! },
        data: { content: "{}" },
      }),
    ),
    230099,
  );
  const plain = (await client.im.v1.message.create({
    params: { receive_id_type: "chat_id" },
    data: { receive_id: D.team, msg_type: "text", content: text("t") },
  })).data!;
  assert.equal(
    await codeOf(
      client.im.v1.message.patch({
        path: { message_id: plain.message_id! },
        data: { content: card("c") },
      }),
    ),
    230001,
  );
});

Deno.test("message.delete recalls own messages; recalled targets then refuse reply, edit and patch", async () => {
  await using emu = await startEmulator();
  const client = sdkClient(emu);
  const sent = (await client.im.v1.message.create({
    params: { receive_id_type: "chat_id" },
    data: { receive_id: D.team, msg_type: "text", content: text("bye") },
  })).data!;
  const id = sent.message_id!;
  assert.equal((await client.im.v1.message.delete({ path: { message_id: id } })).code, 0);
  assert.equal(emu.world.messages.get(id)?.deleted, true);
  const got = await client.im.v1.message.get({ path: { message_id: id } });
  assert.equal(got.data?.items?.[0]?.deleted, true);
  assert.equal(
    await codeOf(
      client.im.v1.message.reply({
        path: { message_id: id },
        data: { msg_type: "text", content: text("x") },
      }),
    ),
    230011,
  );
  assert.equal(
    await codeOf(
      client.im.v1.message.update({
        path: { message_id: id },
        data: { msg_type: "text", content: text("x") },
      }),
    ),
    230011,
  );
  assert.equal(await codeOf(client.im.v1.message.delete({ path: { message_id: id } })), 230011);
  const card = (await client.im.v1.message.create({
    params: { receive_id_type: "chat_id" },
    data: {
      receive_id: D.team,
      msg_type: "interactive",
      content: JSON.stringify({ schema: "2.0", body: { elements: [] } }),
    },
  })).data!.message_id!;
  await client.im.v1.message.delete({ path: { message_id: card } });
  assert.equal(
    await codeOf(
      client.im.v1.message.patch({
        path: { message_id: card },
        data: { content: JSON.stringify({ schema: "2.0", body: { elements: [] } }) },
      }),
    ),
    230011,
  );
  const theirs = emu.userSends({ user: D.bob.openId, chat: D.team, text: "not yours" });
  assert.equal(
    await codeOf(client.im.v1.message.delete({ path: { message_id: theirs.messageId! } })),
    230012,
  );
  assert.equal(
    await codeOf(client.im.v1.message.get({ path: { message_id: "om_unknown" } })),
    230001,
  );
});

Deno.test("message errors reach the SDK as AxiosError with the Feishu error envelope", async () => {
  await using emu = await startEmulator();
  const client = sdkClient(emu);
  try {
    await client.im.v1.message.reply({
      path: { message_id: "om_missing" },
      data: { msg_type: "text", content: text("x") },
    });
    assert.fail("expected the reply to fail");
  } catch (e) {
    const err = e as {
      response: {
        status: number;
        data: { code: number; msg: string; error: { log_id: string; troubleshooter: string } };
      };
    };
    assert.equal(err.response.status, 400);
    assert.equal(err.response.data.code, 230001);
    assert.match(err.response.data.error.log_id, /^log_emu_/);
    assert.match(err.response.data.error.troubleshooter, /code=230001/);
  }
});
