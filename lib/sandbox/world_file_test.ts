import assert from "node:assert/strict";
import { join } from "node:path";
import { DEFAULT_IDS as D, startEmulator } from "../emulator/mod.ts";
import { keepWorld, loadWorld, runToken, WORLD_FILE } from "./world_file.ts";

Deno.test("the world is saved shortly after a change and comes back in the next run, with a later run token", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const first = await loadWorld(dir, 1_800_000_000_000);
    assert.equal(first.world, undefined);
    assert.match(first.note, /new emulator world/);
    const emu = await startEmulator({ idNamespace: `${first.run}_` });
    const kept = await keepWorld(emu, dir, first.run, (err) => assert.fail(err.message));
    try {
      const file = emu.uploadResource({ bytes: new Uint8Array([7, 8]), kind: "file" });
      const { messageId } = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "kept" });
      // Saved on its own, before any stop.
      const deadline = Date.now() + 5000;
      while (!(await Deno.readTextFile(join(dir, WORLD_FILE))).includes("kept")) {
        assert.ok(Date.now() < deadline, "the change was never saved");
        await new Promise((r) => setTimeout(r, 50));
      }
      await kept.close();
      await emu.close();

      // The same second again (or a clock set back): the run token still moves on.
      const second = await loadWorld(dir, 1_800_000_000_000);
      assert.equal(parseInt(second.run, 36), parseInt(first.run, 36) + 1);
      assert.match(second.note, /earlier runs is back \(1 messages\)/);
      assert.equal(second.world?.messages.get(messageId!)?.content, '{"text":"kept"}');
      assert.deepEqual(second.world?.uploads.get(file)?.bytes, new Uint8Array([7, 8]));
    } finally {
      await emu.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a damaged world file is set aside and a new world begins", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      join(dir, WORLD_FILE),
      '{"format":"feishu-mcp sandbox world","run":"zz',
    );
    const loaded = await loadWorld(dir, 1_800_000_000_000);
    assert.equal(loaded.world, undefined);
    assert.match(loaded.note, /could not be read .* moved to .*world\.json\.unreadable-/);
    const names = [...Deno.readDirSync(dir)].map((e) => e.name);
    assert.deepEqual(names, [`${WORLD_FILE}.unreadable-${loaded.run}`]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("run tokens only grow", () => {
  let last: string | undefined;
  for (const now of [1_800_000_000_000, 1_700_000_000_000, 1_800_000_005_000]) {
    const next = runToken(last, now);
    if (last) assert.ok(parseInt(next, 36) > parseInt(last, 36));
    last = next;
  }
  assert.equal(runToken("not a token!", 10_000), "a"); // 10 s, in base 36
});
