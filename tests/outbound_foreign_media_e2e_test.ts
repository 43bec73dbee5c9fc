/**
 * End to end, media another bot owns: an image or file key uploaded by a
 * different app of the tenant (here through the real node-sdk as that app)
 * cannot be sent by ours. Feishu refuses the send (230017, "the bot is not
 * the owner of the resource"); the agent gets PERMISSION_DENIED, not a retry
 * hint, and no message appears in the chat.
 */

import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { sdkClient } from "../lib/emulator/testdata/sdk_harness.ts";
import { D, type Rig, startRig } from "./_outbound.ts";

const OTHER = {
  appId: "cli_0f0f0f0f0f0f0f0f",
  appSecret: "other-secret",
  botOpenId: "ou_emu_other_bot",
  botUnionId: "on_emu_other_bot",
  botName: "OtherBot",
  tenantKey: D.tenantKey,
};

Deno.test("a media key another bot owns is PERMISSION_DENIED, and nothing is posted", async () => {
  await using rig: Rig = await startRig();
  rig.emu.world.addApp(OTHER);
  const other = sdkClient(rig.emu, OTHER.appSecret, OTHER.appId);
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
  const image = await other.im.v1.image.create({ data: { image_type: "message", image: png } });
  const file = await other.im.v1.file.create({
    data: { file_type: "stream", file_name: "notes.txt", file: Buffer.from("notes") },
  });
  const imageKey = image?.image_key;
  const fileKey = file?.file_key;
  assert.ok(imageKey && fileKey, "the other bot's uploads have keys");
  const posted = () => rig.botTexts(D.team).length;
  const before = posted();
  for (
    const content of [
      { type: "image", source: { type: "key", key: imageKey } },
      { type: "file", source: { type: "key", key: fileKey } },
    ]
  ) {
    const out = await rig.call("send", { receive_id: D.team, receive_id_type: "chat_id", content });
    assert.equal(out.status, "failed", JSON.stringify(out));
    assert.equal(out.error_code, "PERMISSION_DENIED", JSON.stringify(out));
    assert.equal(out.retryable, false);
    assert.match(String(out.message), /owner/i);
  }
  assert.equal(posted(), before);
  // The same key stays usable by its owner: the refusal is about ownership, not the key.
  rig.emu.world.chats.get(D.team)!.bots.add(OTHER.appId);
  const own = await other.im.v1.message.create({
    params: { receive_id_type: "chat_id" },
    data: {
      receive_id: D.team,
      msg_type: "image",
      content: JSON.stringify({ image_key: imageKey }),
    },
  });
  assert.equal(own.code, 0);
});
