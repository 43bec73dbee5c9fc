/**
 * End to end, the order between a chat's control clicks and its messages: a
 * control click runs its effect in the click's own ACK, right after the
 * intake commit, so it does not wait for the chat's messages still queued in
 * the chat's worker — not even a typed command sent before it, which runs
 * later, in its turn, after the message ahead of it. Business clicks keep
 * the chat's order (cards_callbacks_e2e_test.ts).
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { DEFAULT_IDS as D, ManualEmuClock, startEmulator } from "../lib/emulator/mod.ts";
import { agentDir, start } from "./_taskcards.ts";

const RESOURCE = "/open-apis/im/v1/messages/:message_id/resources/:file_key";

/** The stored `/taskcard` preference (`feishu/taskcard.json`). */
async function preference(workdir: string): Promise<Record<string, unknown>> {
  return JSON.parse(await Deno.readTextFile(join(workdir, "feishu", "taskcard.json")));
}

Deno.test("a control click runs at its ACK, ahead of the chat's earlier queued messages; a typed command runs in the chat's order, after the message ahead of it", async () => {
  const clock = new ManualEmuClock(Date.now());
  await using emu = await startEmulator({ clock });
  const workdir = await agentDir();
  const bridge = await start(emu, workdir);
  try {
    await emu.ws.whenReady();
    // A control card in Alice's chat: the answer to her `/taskcard`.
    const ask = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "/taskcard" });
    const control = await emu.waitForMessage((m) =>
      m.chatId === D.aliceP2p && m.sender.type === "app" && m.parentId === ask.messageId
    );

    // Alice's image holds her chat: its download waits on the emulator clock.
    emu.faults.add({ method: "GET", path: RESOURCE, times: 1, respond: { delayMs: 60_000 } });
    emu.userSends({
      user: D.alice.openId,
      chat: D.aliceP2p,
      image: { bytes: crypto.getRandomValues(new Uint8Array(128)) },
    });
    await emu.waitFor(() => emu.requests({ method: "GET", path: RESOURCE }).length === 1);
    // Typed behind the image, then a click on the control card.
    const typed = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "/taskcard 2" });
    const clicked = await emu.clickCard({
      user: D.alice.openId,
      messageId: control.messageId,
      value: { lingtai_control: { version: 1, command: "taskcard", argument: "3" } },
    }).result;
    assert.equal(clicked.applied, true);
    // The click's effect is done by its ACK, while the typed command still waits its turn.
    assert.equal((await preference(workdir)).normal_rows, 3);
    assert.match(emu.world.messages.get(control.messageId)!.content, /normal rows:\*\* 3/);
    assert.equal(
      emu.messages(D.aliceP2p).find((m) => m.parentId === typed.messageId),
      undefined,
      "the typed command is not answered while the image holds the chat",
    );
    assert.equal(bridge.channel.items.length, 0, "the image has not reached the agent yet");

    // The image goes through, then the typed command, sent before the click, runs last.
    clock.advance(60_000);
    const [push] = await bridge.channel.atLeast(1);
    assert.equal(push!.meta.message_type, "image");
    await emu.waitForMessage((m) =>
      m.chatId === D.aliceP2p && m.sender.type === "app" && m.parentId === typed.messageId
    );
    assert.equal((await preference(workdir)).normal_rows, 2, "the typed command ran after");
  } finally {
    await bridge.close();
  }
});
