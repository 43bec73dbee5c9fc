/**
 * End to end, the bridge's own cards are not the agent's to touch: a
 * person's reply to the resident Task Card reaches the agent marked as a
 * reply to the Task Card, and `reply`, `react`, `edit` and `delete` on that
 * card's id are refused before any request reaches Feishu. A `send` to the
 * reserved `events` conversation is refused the same way.
 */

import assert from "node:assert/strict";
import { DEFAULT_IDS as D, startEmulator } from "../lib/emulator/mod.ts";
import { agentDir, cardShowing, type Rec, start } from "./_taskcards.ts";

Deno.test("a reply to the Task Card is marked as such, and no action may touch the card; send to events is refused", async () => {
  await using emu = await startEmulator();
  const workdir = await agentDir();
  const bridge = await start(emu, workdir);
  try {
    await emu.ws.whenReady();
    emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "start" });
    const card = await cardShowing(emu, D.aliceP2p, (f) => f.startsWith("📋"));
    // Alice answers the card itself, as people do.
    const answer = emu.userSends({
      user: D.alice.openId,
      chat: D.aliceP2p,
      text: "what is this?",
      replyTo: card.messageId,
    });
    await bridge.updates.atLeast(2);
    const read = await bridge.call("read", { chat_id: D.aliceP2p, limit: 1 });
    const latest = (read.messages as Rec[])[0]!;
    assert.equal(latest.feishu_message_id, answer.messageId);
    const parent = latest.reply_to_message as Rec;
    assert.equal(parent.task_card, true, JSON.stringify(parent));
    const cardId = String(latest.reply_to);
    assert.ok(cardId.endsWith(`:${card.messageId}`), cardId);

    // The agent's attempts only: the bridge keeps editing its card, and presence keeps reacting.
    const writes = () =>
      emu.requests().filter((r) =>
        r.method !== "GET" && (
          (r.path.includes(card.messageId) &&
            (r.method === "DELETE" || r.path.endsWith("/reply") || r.path.includes("/reactions") ||
              JSON.stringify(r.body ?? "").includes("mine now"))) ||
          JSON.stringify(r.body ?? "").includes("hello events")
        )
      ).length;
    const before = writes();
    const refusals: [string, Rec][] = [
      ["reply", { message_id: cardId, text: "no" }],
      ["react", { message_id: cardId, operation: "add", emoji_type: "SMILE" }],
      ["edit", { message_id: cardId, text: "mine now" }],
      ["delete", { message_id: cardId }],
    ];
    for (const [action, input] of refusals) {
      const out = await bridge.call(action, input);
      assert.equal(out.error_code, "INVALID_ARGUMENT", `${action}: ${JSON.stringify(out)}`);
      assert.match(String(out.message), /resident Task Card/, action);
    }
    const events = await bridge.call("send", { receive_id: "events", text: "hello events" });
    assert.equal(events.error_code, "INVALID_ARGUMENT", JSON.stringify(events));
    assert.match(String(events.message), /reserved conversation/);
    assert.equal(writes(), before, "no request reached Feishu");
    const live = emu.world.messages.get(card.messageId)!;
    assert.equal(live.deleted, false);
    // The person's own message stays answerable.
    const ok = await bridge.call("reply", { message_id: String(latest.id), text: "a card I keep" });
    assert.equal(ok.status, "sent", JSON.stringify(ok));
  } finally {
    await bridge.close();
  }
});
