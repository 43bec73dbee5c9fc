import assert from "node:assert/strict";
import { type lark, sdkClient, startWs } from "../testdata/sdk_harness.ts";
import { DEFAULT_IDS, type Emulator, ManualEmuClock, startEmulator } from "../mod.ts";
import { CARD_TOKEN_TTL_MS } from "./card_update.ts";

const D = DEFAULT_IDS;
const card = (t: string) => ({
  schema: "2.0",
  config: { update_multi: true },
  body: { elements: [{ tag: "markdown", content: t }] },
});

/**
 * The node-sdk 1.74 has no typed method for this endpoint (no
 * `interactive.v1.card.update`), so the test calls it through `client.request`.
 * Answers the Feishu code, from the body or from the error envelope.
 */
async function update(client: lark.Client, token: unknown, body: unknown): Promise<number> {
  try {
    const r = await client.request({
      method: "POST",
      url: "/open-apis/interactive/v1/card/update",
      data: { token, card: body },
    }) as { code?: number; msg?: string };
    assert.equal(r.msg, "ok");
    return r.code ?? -1;
  } catch (e) {
    return (e as { response?: { data?: { code?: number } } }).response?.data?.code ?? -1;
  }
}

/** A bot card in the team chat and a click on it; answers the card id and the callback token. */
async function clicked(emu: Emulator, client: lark.Client): Promise<[string, string]> {
  const sent = await client.im.v1.message.create({
    params: { receive_id_type: "chat_id" },
    data: { receive_id: D.team, msg_type: "interactive", content: JSON.stringify(card("ask")) },
  });
  const id = sent.data!.message_id!;
  const click = emu.clickCard({ user: D.alice.openId, messageId: id, value: { go: 1 } });
  const result = await click.result;
  assert.equal(result.ackCode, 200);
  const token = (emu.event(click.eventId)!.envelope.event as { token: string }).token;
  return [id, token];
}

const pageContent = async (emu: Emulator, id: string) => {
  const res = await emu.handle(new Request(`http://x/__emu/api/chats/${D.team}/messages`));
  return (await res.json()).items.find((m: { message_id: string }) => m.message_id === id).content;
};

Deno.test("interactive/v1/card/update replaces the clicked card with the callback token, twice at most", async () => {
  await using emu = await startEmulator();
  const client = sdkClient(emu);
  await using _ws = startWs(emu, { "card.action.trigger": () => ({}) });
  await emu.ws.whenReady();
  const [id, token] = await clicked(emu, client);
  assert.equal(await update(client, token, card("first")), 0);
  const stored = emu.world.messages.get(id)!;
  assert.deepEqual(JSON.parse(stored.content), card("first"));
  assert.equal(stored.updated, true);
  assert.equal(stored.editCount, 0);
  assert.deepEqual(await pageContent(emu, id), card("first"));
  const withIds = { ...card("second"), open_ids: [D.alice.openId] };
  assert.equal(await update(client, token, withIds), 0);
  assert.deepEqual(JSON.parse(emu.world.messages.get(id)!.content), card("second"));
  assert.equal(await update(client, token, card("third")), 300040);
  assert.deepEqual(JSON.parse(emu.world.messages.get(id)!.content), card("second"));
  const logged = emu.requests({ path: "/open-apis/interactive/v1/card/update" });
  assert.deepEqual(logged.map((r) => r.code), [0, 0, 300040]);
  assert.match(logged[0]?.headers.authorization ?? "", /^Bearer t-/);
});

Deno.test("interactive/v1/card/update refuses unknown, expired, recalled and malformed updates with distinct codes", async () => {
  const clock = new ManualEmuClock();
  await using emu = await startEmulator({ clock });
  const client = sdkClient(emu);
  await using _ws = startWs(emu, { "card.action.trigger": () => ({}) });
  await emu.ws.whenReady();
  const [id, token] = await clicked(emu, client);
  assert.equal(await update(client, "not-a-token", card("x")), 300020);
  assert.equal(await update(client, "c-emu_9999", card("x")), 300020);
  assert.equal(await update(client, token, "not a card"), 10002);
  assert.equal(await update(client, token, { schema: "2.0", body: {} }), 11311);
  assert.equal(emu.world.cardTokens.get(token)?.uses, 0);

  const [, late] = await clicked(emu, client);
  clock.advance(CARD_TOKEN_TTL_MS);
  assert.equal(await update(client, late, card("in time")), 0);
  clock.advance(1);
  assert.equal(await update(client, late, card("too late")), 300030);

  const [gone, goneToken] = await clicked(emu, client);
  await client.im.v1.message.delete({ path: { message_id: gone } });
  assert.equal(await update(client, goneToken, card("x")), 200000);

  const theirs = emu.userSends({ user: D.bob.openId, chat: D.team, interactive: card("user") });
  const click = emu.clickCard({ user: D.alice.openId, messageId: theirs.messageId!, value: {} });
  await click.result;
  const userToken = (emu.event(click.eventId)!.envelope.event as { token: string }).token;
  assert.equal(await update(client, userToken, card("x")), 200310);
  assert.deepEqual(JSON.parse(emu.world.messages.get(id)!.content), card("ask"));
});
