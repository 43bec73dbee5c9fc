/**
 * End to end, two admission rules nothing else guards: a typed command from
 * someone outside `allowed_users` in a group does nothing at all (no control
 * card, no refusal, no record, no wake), and saving someone as a contact
 * admits nobody (the address book is for sending, not for access).
 */

import assert from "node:assert/strict";
import { DEFAULT_IDS as D, startEmulator } from "../lib/emulator/mod.ts";
import { bridgeConfig, startBridge, until } from "./_inbound.ts";

Deno.test("admission: a group command from outside allowed_users does nothing; a saved contact is not admitted", async () => {
  await using emu = await startEmulator();
  const bridge = await startBridge({
    config: bridgeConfig(emu.url, {
      account: { allowed_users: [D.alice.openId], owners: [D.alice.openId] },
    }),
  });
  try {
    await emu.ws.whenReady();
    const botPosts = (chat: string) =>
      emu.messages(chat).filter((m) => m.sender.type === "app").length;

    // Bob types control commands at the bot in the group; Alice's message after them
    // (one chat, one FIFO) proves they were handled.
    for (const text of ["/clear", "/sleep", "/status", "/help"]) {
      emu.userSends({ user: D.bob.openId, chat: D.team, text, mentions: ["bot"] });
    }
    emu.userSends({ user: D.alice.openId, chat: D.team, text: "after", mentions: ["bot"] });
    await bridge.updates.atLeast(1);
    assert.deepEqual((await bridge.records(D.team)).map((r) => r.text), ["after"]);
    assert.equal(botPosts(D.team), 0, "no control card, no refusal card");
    const admission = (await bridge.account()).admission as Record<string, unknown>;
    assert.equal(admission.commands, 0);
    assert.equal((admission.rejected as Record<string, number>).sender_not_allowed, 4);
    assert.equal(bridge.channel.items.length, 1);

    // The agent saves Bob as a contact (and could now send to him by alias)...
    const saved = await bridge.call("add_contact", {
      open_id: D.bob.openId,
      alias: "bob",
      chat_id: D.bobP2p,
    });
    assert.equal(saved.status, "added", JSON.stringify(saved));
    // ...but his DM is still refused, as before.
    emu.userSends({ user: D.bob.openId, chat: D.bobP2p, text: "let me in" });
    emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "hi" });
    await bridge.updates.atLeast(2);
    await until(async () => {
      const a = (await bridge.account()).admission as Record<string, Record<string, number>>;
      return a.rejected!.sender_not_allowed === 5;
    }, { what: "Bob's DM to be refused" });
    assert.deepEqual(await bridge.records(D.bobP2p), []);
    assert.equal(botPosts(D.bobP2p), 0);
    assert.equal(bridge.channel.items.length, 2);
  } finally {
    await bridge.close();
  }
});
