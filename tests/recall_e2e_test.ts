/**
 * End to end, a message recalled on Feishu (`im.message.recalled_v1`, pushed
 * by the emulator): handled in its chat after the message itself, the stored
 * record reads as recalled without its text (search no longer finds it, its
 * files are gone), its Typing is removed, an `events` record says so, and
 * the agent, woken for it and not having answered, is told it was
 * withdrawn; with `privacy.keep_recalled` the text stays; a recall after the
 * agent answered tells the agent nothing; a reply to it fails with
 * `TARGET_REVOKED`; the recalled words leave the chat's Task Card.
 */

import assert from "node:assert/strict";
import { dirname } from "node:path";
import { DEFAULT_IDS as D, type Emulator, startEmulator } from "../lib/emulator/mod.ts";
import { type Bridge, bridgeConfig, startBridge, until } from "./_inbound.ts";
import {
  agentDir,
  agentState,
  appendEvents,
  cardShowing,
  diary,
  frameOf,
  start,
} from "./_taskcards.ts";

type Rec = Record<string, unknown>;

const appTyping = (emu: Emulator, messageId: string) =>
  emu.reactions(messageId).filter((r) => r.emojiType === "Typing" && r.operatorType === "app");

/** The reaction removals asked of Feishu on a message. */
const removals = (emu: Emulator, messageId: string) =>
  emu.requests({ method: "DELETE" }).filter((r) =>
    r.path.startsWith(`/open-apis/im/v1/messages/${messageId}/reactions/`)
  );

/** Alice writes `text` in her DM; resolves with the Feishu id once the agent was woken for it. */
async function aliceSays(
  emu: Emulator,
  bridge: Bridge,
  input: { text?: string; image?: Uint8Array },
) {
  const woken = bridge.channel.items.length;
  const { messageId } = emu.userSends({
    user: D.alice.openId,
    chat: D.aliceP2p,
    ...(input.text !== undefined ? { text: input.text } : {}),
    ...(input.image ? { image: { bytes: input.image } } : {}),
  });
  await bridge.channel.atLeast(woken + 1);
  return messageId!;
}

/** The `events` record of the recall of `messageId`, once it is there. */
function recallEvent(bridge: Bridge, messageId: string): Promise<Rec> {
  return until(async () => {
    const events = await bridge.records("events");
    return events.find((e) =>
      e.event_type === "message_recalled" && (e.event as Rec).message_id === messageId
    );
  }, { what: `the recall event of ${messageId}` });
}

const recordOf = async (bridge: Bridge, messageId: string) =>
  (await bridge.records(D.aliceP2p)).find((r) => r.feishu_message_id === messageId)!;

Deno.test("recall: an unanswered message loses its text, files and Typing, an events record says so, and the agent is told it was withdrawn", async () => {
  await using emu = await startEmulator();
  const bridge = await startBridge({ config: bridgeConfig(emu.url) });
  try {
    await emu.ws.whenReady();
    const photo = await aliceSays(emu, bridge, { image: new TextEncoder().encode("photo bytes") });
    const secret = await aliceSays(emu, bridge, { text: "the launch code is 4711" });
    await emu.waitFor(() => appTyping(emu, secret).length, { description: "the Typing" });
    const found = await bridge.call("search", { query: "launch code" });
    assert.equal(found.total, 1, "searchable before the recall");
    const file = ((await recordOf(bridge, photo)).attachments as Rec[])[0]!;
    assert.equal(file.status, "downloaded");
    await Deno.stat(String(file.path));

    emu.recall({ messageId: secret, push: true, recallType: "message_owner" });
    const [, , withdrawn] = await bridge.channel.atLeast(3);
    assert.equal(withdrawn!.meta.message_type, "recalled");
    assert.equal(withdrawn!.meta.recalled_message_id, `main:${D.aliceP2p}:${secret}`);
    assert.equal(withdrawn!.meta.recalled_by, "message_owner");
    assert.ok(!withdrawn!.content.includes("4711"), withdrawn!.content);
    // The Typing's removal is asked for (Feishu answers that the message is gone, which
    // settles it) and the stored Typing goes.
    await emu.waitFor(() => removals(emu, secret).length, { description: "the Typing removal" });
    await until(async () => (await bridge.account()).typing_pending === 0, {
      what: "no Typing stored",
    });

    const gone = await recordOf(bridge, secret);
    assert.equal(gone.text, "[recalled]");
    assert.equal((gone.recalled as Rec).by, "message_owner");
    assert.equal((gone.recalled as Rec).removed, true);
    assert.ok(!JSON.stringify(gone).includes("4711"), "no trace of the text in the record");
    assert.equal((await bridge.call("search", { query: "launch code" })).total, 0);
    assert.equal((await bridge.call("search", { query: "4711" })).total, 0);
    const event = await recallEvent(bridge, secret);
    assert.equal((event.event as Rec).recall_type, "message_owner");
    assert.equal(event.source_chat_id, D.aliceP2p);

    // The photo: its file goes with its text.
    emu.recall({ messageId: photo, push: true });
    await recallEvent(bridge, photo);
    const photoRecord = await recordOf(bridge, photo);
    assert.deepEqual(photoRecord.attachments, []);
    assert.equal(photoRecord.media, null);
    await assert.rejects(Deno.stat(dirname(String(file.path))), Deno.errors.NotFound);

    // A reply to a recalled message is refused by Feishu, classified.
    const refused = await bridge.call("reply", {
      message_id: `main:${D.aliceP2p}:${secret}`,
      text: "too late",
    });
    assert.equal(refused.error_code, "TARGET_REVOKED", JSON.stringify(refused));
    assert.equal(refused.retryable, false);
  } finally {
    await bridge.close();
  }
});

Deno.test("recall: with privacy.keep_recalled the record keeps its text and is marked recalled", async () => {
  await using emu = await startEmulator();
  const bridge = await startBridge({
    config: bridgeConfig(emu.url, { top: { privacy: { keep_recalled: true } } }),
  });
  try {
    await emu.ws.whenReady();
    const kept = await aliceSays(emu, bridge, { text: "keep this 1234" });
    emu.recall({ messageId: kept, push: true, recallType: "group_owner" });
    await recallEvent(bridge, kept);
    const record = await recordOf(bridge, kept);
    assert.equal(record.text, "keep this 1234");
    assert.deepEqual({ ...(record.recalled as Rec), at: null }, {
      at: null,
      by: "group_owner",
      removed: false,
    });
    assert.equal((await bridge.call("search", { query: "keep this" })).total, 1);
  } finally {
    await bridge.close();
  }
});

Deno.test("recall: after the agent answered, the record is marked and quotes of it say recalled, but the agent is not told", async () => {
  await using emu = await startEmulator();
  const bridge = await startBridge({ config: bridgeConfig(emu.url) });
  try {
    await emu.ws.whenReady();
    const asked = await aliceSays(emu, bridge, { text: "what time is it" });
    const out = await bridge.call("reply", {
      message_id: `main:${D.aliceP2p}:${asked}`,
      text: "9",
    });
    assert.equal(out.status, "sent", JSON.stringify(out));
    // Alice quotes her own question in a reply (a second wake).
    const { messageId: quoting } = emu.userSends({
      user: D.alice.openId,
      chat: D.aliceP2p,
      text: "well?",
      replyTo: asked,
    });
    await bridge.channel.atLeast(2);
    assert.equal(
      ((await recordOf(bridge, quoting!)).reply_to_message as Rec).text,
      "what time is it",
    );
    emu.recall({ messageId: asked, push: true });
    // The events record is written after the notification would have gone out (same job).
    await recallEvent(bridge, asked);
    assert.equal((await recordOf(bridge, asked)).text, "[recalled]");
    assert.equal(bridge.channel.items.length, 2, "only the messages' own wakes");
    // The reply quoting it now shows what Feishu shows there.
    assert.equal(((await recordOf(bridge, quoting!)).reply_to_message as Rec).text, "[recalled]");
  } finally {
    await bridge.close();
  }
});

Deno.test("recall: a message never stored (a group message not for the bot) leaves only the events record", async () => {
  await using emu = await startEmulator();
  const bridge = await startBridge({ config: bridgeConfig(emu.url) });
  try {
    await emu.ws.whenReady();
    const { messageId } = emu.userSends({ user: D.bob.openId, chat: D.team, text: "not for you" });
    // Handled in the chat's order: once Alice's mention woke the agent, Bob's message was judged.
    emu.userSends({ user: D.alice.openId, chat: D.team, text: "@bot hi", mentions: ["bot"] });
    await bridge.channel.atLeast(1);
    emu.recall({ messageId: messageId!, push: true });
    const event = await until(async () =>
      (await bridge.records("events")).find((e) =>
        e.event_type === "message_recalled" && (e.event as Rec).message_id === messageId
      )
    );
    assert.equal(event.source_chat_id, D.team);
    assert.ok(!(await bridge.records(D.team)).some((r) => r.feishu_message_id === messageId));
    assert.equal(bridge.channel.items.length, 1, "no withdrawn notice");
  } finally {
    await bridge.close();
  }
});

Deno.test("recall: the recalled words leave the chat's Task Card, and a later row quoting them cut short shows none either", async () => {
  await using emu = await startEmulator();
  const workdir = await agentDir();
  const bridge = await start(emu, workdir);
  try {
    await emu.ws.whenReady();
    // Markup characters too: the card escapes them after the recalled words are taken out.
    const secret = "my *door* code is [4417] | use it tonight";
    const { messageId } = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: secret });
    await bridge.channel.atLeast(1);
    await cardShowing(emu, D.aliceP2p, (f) => f.startsWith("📋"));
    await agentState(workdir, "active");
    // The agent's row quotes her (the card shows its newest row).
    await appendEvents(workdir, diary(`Answering Alice: ${secret}`, "a1"));
    await cardShowing(emu, D.aliceP2p, (f) => f.includes("4417"));
    // What people see: the card's character references read as the characters.
    const seen = (f: string) => f.replace(/&#(\d+);/g, (_, n) => String.fromCodePoint(Number(n)));
    emu.recall({ messageId: messageId!, push: true });
    const after = seen(frameOf(await cardShowing(emu, D.aliceP2p, (f) => !f.includes("4417"))));
    assert.match(after, /Answering Alice: \[recalled\]/);
    // A later row quoting her words cut short is blanked too.
    await appendEvents(workdir, diary(`Noted: ${secret.slice(0, 12)}…`, "a2"));
    const later = seen(frameOf(await cardShowing(emu, D.aliceP2p, (f) => f.includes("Noted"))));
    assert.match(later, /Noted: \[recalled\]/);
    assert.doesNotMatch(later, /door/);
  } finally {
    await bridge.close();
  }
});
