import assert from "node:assert/strict";
import { sdkClient } from "../testdata/sdk_harness.ts";
import { DEFAULT_IDS as D, startEmulator } from "../mod.ts";

/** The app adds `OK` twice to one message of Alice's; returns the two answered ids. */
async function addTwice(duplicateReactions?: boolean) {
  const emu = await startEmulator({ duplicateReactions });
  const client = sdkClient(emu);
  const { messageId } = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "hi" });
  const add = () =>
    client.im.v1.messageReaction.create({
      path: { message_id: messageId! },
      data: { reaction_type: { emoji_type: "OK" } },
    }).then((r) => r.data?.reaction_id);
  const ids = [await add(), await add()];
  return { emu, ids, mine: emu.reactions(messageId!).filter((r) => r.operatorId === D.appId) };
}

Deno.test("a second add of the same emoji answers the app's existing reaction by default", async () => {
  const { emu, ids, mine } = await addTwice();
  await using _ = emu;
  assert.equal(ids[0], ids[1]);
  assert.deepEqual(mine.map((r) => r.reactionId), [ids[0]]);
});

Deno.test("with duplicateReactions every add creates a new reaction", async () => {
  const { emu, ids, mine } = await addTwice(true);
  await using _ = emu;
  assert.notEqual(ids[0], ids[1]);
  assert.deepEqual(mine.map((r) => r.reactionId), ids);
  assert.equal(emu.settings.duplicateReactions, true);
});
