import assert from "node:assert/strict";
import { createDefaultWorld, DEFAULT_IDS as D, makeChat } from "./fixtures.ts";
import { restoreWorld, snapshotWorld } from "./snapshot.ts";
import { createEmulator } from "./emulator.ts";

Deno.test("a world survives its snapshot: messages, reactions, uploads, chats, card state", async () => {
  await using emu = createEmulator({ idNamespace: "r1_" });
  const image = emu.uploadResource({ bytes: new Uint8Array([1, 2, 3]), kind: "image" });
  const { messageId } = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "hi" });
  emu.userReacts({ user: D.alice.openId, messageId: messageId!, emoji: "SMILE" });
  emu.world.addChat(
    makeChat({
      chatId: "oc_emu_extra",
      name: "Extra",
      mode: "group",
      members: [D.bob.openId],
      bots: [],
    }),
  );
  emu.world.uuids.set(`${D.appId}|u-1`, { messageId: messageId!, at: 5 });
  assert.equal(messageId, "om_emu_r1_0001");

  const json = JSON.parse(JSON.stringify(snapshotWorld(emu.world)));
  const bytes = new Map([[image, new Uint8Array([1, 2, 3])]]);
  const back = restoreWorld(json, (key) => bytes.get(key));

  const plain = (v: unknown) => JSON.parse(JSON.stringify(v)); // undefined fields are not kept
  assert.deepEqual(plain(back.messagesOf(D.aliceP2p)), plain(emu.world.messagesOf(D.aliceP2p)));
  assert.deepEqual(back.reactionsOf(messageId!), emu.world.reactionsOf(messageId!));
  assert.deepEqual(back.uploads.get(image)?.bytes, new Uint8Array([1, 2, 3]));
  assert.equal(back.chats.get("oc_emu_extra")?.name, "Extra");
  assert.ok(back.chats.get(D.team)?.bots.has(D.appId));
  assert.deepEqual(back.uuids.get(`${D.appId}|u-1`), { messageId, at: 5 });
  // New messages sort after the restored ones.
  const next = back.addMessage({ ...back.messages.get(messageId!)!, messageId: "om_next" });
  assert.ok(next.seq > back.messages.get(messageId!)!.seq);
  assert.equal(back.messagesOf(D.aliceP2p).at(-1)?.messageId, "om_next");
});

Deno.test("an upload whose bytes are gone is left out; the snapshot holds no bytes and no tokens", () => {
  const w = createDefaultWorld();
  w.uploads.set("img_x", {
    key: "img_x",
    kind: "image",
    bytes: new Uint8Array(4),
    contentType: "x",
  });
  w.tokens.set("t-1", { token: "t-1", appId: D.appId, expiresAt: 0, revoked: false });
  const snap = snapshotWorld(w);
  assert.ok(!JSON.stringify(snap).includes("bytes"));
  assert.ok(!("tokens" in snap));
  const back = restoreWorld(JSON.parse(JSON.stringify(snap)), () => undefined);
  assert.equal(back.uploads.size, 0);
});

Deno.test("restoreWorld refuses what is no snapshot of this version, saying what is wrong", () => {
  const good = JSON.parse(JSON.stringify(snapshotWorld(createDefaultWorld())));
  const cases: [unknown, RegExp][] = [
    [null, /snapshot object/],
    [{ ...good, version: 2 }, /version 1 but found 2/],
    [{ ...good, messages: {} }, /'messages' to be a list/],
    [{ ...good, messages: [{ chatId: "oc" }] }, /'messages' to have a 'messageId'/],
    [{ ...good, chats: [{ chatId: "oc", members: [] }] }, /members and bots/],
  ];
  for (const [data, error] of cases) {
    assert.throws(() => restoreWorld(data, () => undefined), error);
  }
});
