/**
 * End to end over stdio against the emulator: hostile content never stalls
 * the server. Markdown nested past its budget is refused at once with a
 * FORMAT_ERROR naming the budget; heavy markdown within it is planned off
 * the thread that serves stdio, so other calls answer while it runs; a card
 * nested ten thousand levels deep is a FORMAT_ERROR, not UNKNOWN. Inbound, a
 * post nested ten thousand levels deep is recorded at once with a
 * placeholder and its reason, and the chat's next message follows it
 * without any retry or dead letter.
 */

import assert from "node:assert/strict";
import { D, type Rig, startRig } from "./_outbound.ts";

/** `{ elements: [ { elements: [ … ] } ] }`, `levels` objects and arrays deep. */
function deepCard(levels: number): Record<string, unknown> {
  let v: Record<string, unknown> = { tag: "markdown", content: "bottom" };
  for (let i = 0; i < levels / 2; i++) v = { tag: "column_set", elements: [v] };
  return { schema: "2.0", body: { elements: [v] } };
}

const sendTo = (rig: Rig, chat: string, content: Record<string, unknown>) =>
  rig.call("send", { receive_id: chat, receive_id_type: "chat_id", content });

Deno.test("hostile markdown: past the nesting budget it is a FORMAT_ERROR at once; heavy but within it, other calls answer while it is planned", async () => {
  await using rig = await startRig();

  // 10 KB, five thousand levels of list: refused before any parse.
  const deep = "- ".repeat(5_000) + "x";
  const refused = await sendTo(rig, D.team, { type: "markdown", markdown: deep });
  assert.equal(refused.status, "failed");
  assert.equal(refused.error_code, "FORMAT_ERROR");
  assert.equal(refused.retryable, false);
  assert.match(String(refused.message), /nested at most 32 levels deep/);

  // 10 KB, a long list eight levels deep: within the budget, slow to parse.
  const heavy = ("- ".repeat(8) + "x\n").repeat(560);
  assert.ok(heavy.length >= 10_000);
  const order: string[] = [];
  const hostile = sendTo(rig, D.team, { type: "markdown", markdown: heavy }).then((out) => {
    order.push("hostile");
    return out;
  });
  const accounts = rig.call("accounts", {}).then((out) => {
    order.push("accounts");
    return out;
  });
  const normal = sendTo(rig, D.aliceP2p, { type: "markdown", markdown: "**hello**" }).then(
    (out) => {
      order.push("normal");
      return out;
    },
  );
  const [h, a, n] = await Promise.all([hostile, accounts, normal]);
  assert.equal(a.status, "ok");
  assert.equal(n.status, "sent");
  // Both answered while the hostile send was still being planned.
  assert.deepEqual(order.slice(0, 2).sort(), ["accounts", "normal"]);
  assert.equal(order[2], "hostile");
  // It either fits the time budget and is sent, or names the budget.
  if (h.status !== "sent") {
    assert.equal(h.error_code, "FORMAT_ERROR");
    assert.match(String(h.message), /longer than \d+(\.\d+)? s to plan/);
  }
  assert.match(rig.botTexts(D.aliceP2p).at(-1)!, /hello/);
});

Deno.test("a card or post nested ten thousand levels deep is a FORMAT_ERROR naming the budget, and nothing is sent", async () => {
  await using rig = await startRig();
  const before = rig.emu.messages(D.team).length;
  const card = await sendTo(rig, D.team, { type: "card", card: deepCard(10_000) });
  assert.equal(card.status, "failed");
  assert.equal(card.error_code, "FORMAT_ERROR");
  assert.match(String(card.message), /card nested at most 64 levels deep/);
  let row: unknown = { tag: "text", text: "x" };
  for (let i = 0; i < 10_000; i++) row = { tag: "text", text: "y", children: [row] };
  const post = await sendTo(rig, D.team, {
    type: "post",
    post: { zh_cn: { title: "", content: [[row]] } },
  });
  assert.equal(post.error_code, "FORMAT_ERROR", JSON.stringify(post));
  assert.equal(rig.emu.messages(D.team).length, before);
  // The server still serves.
  assert.equal((await rig.call("accounts", {})).status, "ok");
});

Deno.test("inbound: a post nested ten thousand levels deep is recorded at once with a placeholder, and the chat's next message follows without retries", async () => {
  await using rig = await startRig();
  let element: unknown = { tag: "text", text: "bottom" };
  for (let i = 0; i < 10_000; i++) element = { tag: "text", text: "x", children: [element] };
  const poison = rig.emu.userSends({
    user: D.alice.openId,
    chat: D.aliceP2p,
    post: { title: "deep", content: [[element]] },
  });
  const next = await rig.inbound({ user: D.alice.openId, chat: D.aliceP2p, text: "after it" });
  assert.equal(next.push.content.includes("after it"), true);

  const read = await rig.call("read", { chat_id: D.aliceP2p, limit: null });
  assert.equal(read.status, "ok");
  const messages = (read.messages as Record<string, unknown>[]).reverse();
  const texts = messages.map((m) => m.text);
  const bad = messages.find((m) => m.feishu_message_id === poison.messageId);
  assert.ok(bad, `the poison message is recorded: ${JSON.stringify(texts)}`);
  assert.match(String(bad.text), /^\[message could not be read: .*64 levels\]$/);
  assert.match(String(bad.error), /nested deeper than 64 levels/);
  assert.ok(String(bad.error).length <= 300);
  assert.equal((bad.content as Record<string, unknown>).kind, "unknown");
  // Its raw envelope is kept as received.
  const raw = (bad.feishu as { event: { message: { message_id: string } } }).event.message;
  assert.equal(raw.message_id, poison.messageId);
  // Recorded in order, the poison one first.
  assert.deepEqual(
    messages.filter((m) => m.direction !== "outgoing").map((m) => m.feishu_message_id),
    [poison.messageId, next.messageId],
  );

  const status = JSON.parse(await rig.server.resource("lingtai://status"));
  const journal = status.journal as Record<string, unknown>;
  assert.equal(journal.dead_letters, 0);
  assert.equal(journal.failures, 0);
  assert.deepEqual(journal.fifo, []);
  assert.equal(journal.pending, 0);
});
