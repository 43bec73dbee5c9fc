/**
 * End to end, access rules: the real server over stdio against the
 * emulator. Under `access.dm: "pairing"` a DM from someone not admitted gets
 * one pairing code and reaches nobody (no wake, nothing in `check` or
 * `read`); the owner approves by typing `/pair CODE` or clicking Approve on
 * the card in their DM (anyone else's click does nothing), and the person's
 * next DM wakes the agent, also after a restart. Codes expire after an
 * hour of Feishu's clock (the emulator's manual clock: no waiting), a
 * person gets at most two codes, then silence. Under `access.outbound:
 * "admitted"` a send to a never-seen open_id is `TARGET_NOT_ALLOWED` and
 * Feishu sees no request.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import {
  DEFAULT_IDS as D,
  type Emulator,
  ManualEmuClock,
  startEmulator,
} from "../lib/emulator/mod.ts";
import { NOT_OWNER_TOAST } from "../lib/service/commands.ts";
import { type Bridge, bridgeConfig, startBridge, until } from "./_inbound.ts";

type Rec = Record<string, unknown>;
type Card = { body: { elements: Rec[] } };

const PAIRING = { owners: [D.alice.openId], access: { dm: "pairing" } };

function start(emu: Emulator, workdir?: string, account: Rec = PAIRING): Promise<Bridge> {
  return startBridge({ workdir, config: bridgeConfig(emu.url, { account }) });
}

/** The bot's reply to a message (waits for it). */
async function replyTo(emu: Emulator, chatId: string, messageId: string): Promise<string> {
  const m = await emu.waitForMessage((m) =>
    m.chatId === chatId && m.sender.type === "app" && m.parentId === messageId
  );
  return m.content;
}

/** The pairing code a reply shows in inline code. */
function codeIn(content: string): string {
  const found = /`([a-z0-9]{6})`/.exec(content);
  assert.ok(found, `a pairing code in ${content}`);
  return found[1]!;
}

/** The bot's cards in a chat that are not replies (approval cards, notes). */
const botCards = (emu: Emulator, chatId: string) =>
  emu.messages(chatId).filter((m) => m.sender.type === "app" && !m.parentId);

/** How many DMs the pipeline refused for pairing so far. */
async function pairingRefusals(bridge: Bridge): Promise<number> {
  const admission = (await bridge.account()).admission as { rejected?: Rec } | undefined;
  return Number(admission?.rejected?.pairing_required ?? 0);
}

function buttons(content: string): { label: string; value: Rec }[] {
  return (JSON.parse(content) as Card).body.elements.filter((e) => e.tag === "button").map((e) => ({
    label: (e.text as { content: string }).content,
    value: e.value as Rec,
  }));
}

Deno.test("pairing: a stranger's DM gets a code and wakes nothing; the owner's /pair admits them, across a restart", async () => {
  await using emu = await startEmulator();
  const workdir = await Deno.makeTempDir({ prefix: "feishu-mcp-access-" });
  let bridge = await start(emu, workdir);
  try {
    await emu.ws.whenReady();
    emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "hi from the owner" });
    await bridge.channel.atLeast(1);

    const ask = emu.userSends({ user: D.bob.openId, chat: D.bobP2p, text: "let me in" });
    const answer = await replyTo(emu, D.bobP2p, ask.messageId!);
    const code = codeIn(answer);
    assert.match(code, /^[a-z0-9]{6}$/);
    // The owner's approval card names the code and carries Approve and Deny.
    const approval = await emu.waitForMessage((m) =>
      m.chatId === D.aliceP2p && m.sender.type === "app" && m.content.includes(code)
    );
    assert.deepEqual(buttons(approval.content).map((b) => b.label), ["Approve", "Deny"]);
    // Nothing reached the agent: no wake, no conversation, nothing to read.
    assert.equal(bridge.channel.items.length, 1);
    const check = await bridge.call("check", {});
    assert.ok(!JSON.stringify(check).includes(D.bobP2p), JSON.stringify(check));
    assert.deepEqual(await bridge.records(D.bobP2p), []);

    const pair = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: `/pair ${code}` });
    assert.match(await replyTo(emu, D.aliceP2p, pair.messageId!), /is paired/);
    // The person hears they are in.
    await emu.waitFor(() => botCards(emu, D.bobP2p).length === 1);
    const access = join(workdir, "feishu", "access.json");
    assert.equal((await Deno.stat(access)).mode! & 0o777, 0o600);
    assert.ok((await Deno.readTextFile(access)).includes(D.bob.openId));
    assert.deepEqual((await bridge.account()).access, {
      dm: "pairing",
      outbound: "any",
      bots: "mention",
      admitted_count: 2,
    });

    emu.userSends({ user: D.bob.openId, chat: D.bobP2p, text: "thanks, here I am" });
    const pushes = await bridge.channel.atLeast(2);
    assert.equal(pushes[1]!.content, "thanks, here I am");

    // /status lists the paired person; a restart keeps them paired.
    const status = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "/status" });
    assert.ok((await replyTo(emu, D.aliceP2p, status.messageId!)).includes(D.bob.openId));
    await bridge.close();
    bridge = await start(emu, workdir);
    emu.userSends({ user: D.bob.openId, chat: D.bobP2p, text: "after the restart" });
    const again = await bridge.channel.atLeast(1);
    assert.equal(again.at(-1)!.content, "after the restart");

    // /unpair takes them out again: their next DM is refused (and, their count
    // being fresh, answered with a new code).
    const unpair = emu.userSends({
      user: D.alice.openId,
      chat: D.aliceP2p,
      text: `/unpair ${D.bob.openId}`,
    });
    assert.match(await replyTo(emu, D.aliceP2p, unpair.messageId!), /no longer paired/);
    const later = emu.userSends({ user: D.bob.openId, chat: D.bobP2p, text: "still there?" });
    codeIn(await replyTo(emu, D.bobP2p, later.messageId!));
    assert.equal(bridge.channel.items.length, 1);
  } finally {
    await bridge.close();
  }
});

Deno.test("pairing: only the owner's click on the approval card approves; anyone else's does nothing", async () => {
  await using emu = await startEmulator();
  const bridge = await start(emu);
  try {
    await emu.ws.whenReady();
    emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "hi" });
    await bridge.channel.atLeast(1);
    const ask = emu.userSends({ user: D.bob.openId, chat: D.bobP2p, text: "hello?" });
    const code = codeIn(await replyTo(emu, D.bobP2p, ask.messageId!));
    const approval = await emu.waitForMessage((m) =>
      m.chatId === D.aliceP2p && m.sender.type === "app" && m.content.includes(code)
    );
    const approve = buttons(approval.content).find((b) => b.label === "Approve")!;

    // Bob's own click on Alice's card (a frame Feishu delivers for him) is refused.
    emu.ws.sendCardFrame({
      schema: "2.0",
      header: {
        event_id: "ev_forged_approve",
        event_type: "card.action.trigger",
        create_time: String(Date.now()),
        token: "",
        app_id: D.appId,
        tenant_key: "tk_emu",
      },
      event: {
        operator: { open_id: D.bob.openId },
        action: { tag: "button", value: approve.value },
        context: { open_message_id: approval.messageId, open_chat_id: D.aliceP2p },
      },
    });
    await emu.waitFor(() => emu.ws.unmatchedAcks().length === 1);
    const ack = emu.ws.unmatchedAcks()[0]!.data as { toast?: { content?: string } };
    assert.equal(ack.toast?.content, NOT_OWNER_TOAST);
    const still = emu.userSends({ user: D.bob.openId, chat: D.bobP2p, text: "anyone?" });
    await until(async () => await pairingRefusals(bridge) >= 2, { what: "the second DM refused" });
    assert.equal(emu.messages(D.bobP2p).filter((m) => m.parentId === still.messageId).length, 0);

    const clicked = await emu.clickCard({
      user: D.alice.openId,
      messageId: approval.messageId,
      value: approve.value,
    }).result;
    assert.equal(clicked.applied, true);
    assert.match(JSON.stringify(clicked.card?.data), /is paired/);
    emu.userSends({ user: D.bob.openId, chat: D.bobP2p, text: "now?" });
    const pushes = await bridge.channel.atLeast(2);
    assert.equal(pushes[1]!.content, "now?");
  } finally {
    await bridge.close();
  }
});

Deno.test("pairing: a code expires after an hour of Feishu's clock; two codes per person, then silence", async () => {
  const clock = new ManualEmuClock(Date.now());
  await using emu = await startEmulator({ clock });
  const bridge = await start(emu);
  try {
    await emu.ws.whenReady();
    const first = emu.userSends({ user: D.bob.openId, chat: D.bobP2p, text: "attempt 1" });
    const code1 = codeIn(await replyTo(emu, D.bobP2p, first.messageId!));
    // While the code lives, asking again gets no second answer.
    emu.userSends({ user: D.bob.openId, chat: D.bobP2p, text: "attempt 2" });
    await until(async () => await pairingRefusals(bridge) >= 2, { what: "attempt 2 refused" });

    clock.advance(61 * 60_000);
    const late = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: `/pair ${code1}` });
    assert.match(await replyTo(emu, D.aliceP2p, late.messageId!), /unknown or has expired/);

    const third = emu.userSends({ user: D.bob.openId, chat: D.bobP2p, text: "attempt 3" });
    const code2 = codeIn(await replyTo(emu, D.bobP2p, third.messageId!));
    assert.notEqual(code2, code1);

    clock.advance(61 * 60_000);
    for (let n = 4; n <= 10; n++) {
      emu.userSends({ user: D.bob.openId, chat: D.bobP2p, text: `attempt ${n}` });
    }
    await until(async () => await pairingRefusals(bridge) >= 10, { what: "ten attempts refused" });
    // Two code replies in all; the tenth attempt, after the second code expired, got none.
    const replies = emu.messages(D.bobP2p).filter((m) => m.sender.type === "app");
    assert.equal(replies.length, 2);
    const tooLate = emu.userSends({
      user: D.alice.openId,
      chat: D.aliceP2p,
      text: `/pair ${code2}`,
    });
    assert.match(await replyTo(emu, D.aliceP2p, tooLate.messageId!), /unknown or has expired/);
    assert.equal(bridge.channel.items.length, 0);
  } finally {
    await bridge.close();
  }
});

Deno.test('access.outbound "admitted": a send to a never-seen open_id is TARGET_NOT_ALLOWED and Feishu sees no request', async () => {
  await using emu = await startEmulator();
  const bridge = await start(emu, undefined, {
    owners: [D.alice.openId],
    access: { dm: "allowlist", outbound: "admitted" },
  });
  try {
    await emu.ws.whenReady();
    const sends = () => emu.requests({ path: "/open-apis/im/v1/messages", method: "POST" }).length;
    const before = sends();
    const refused = await bridge.call("send", {
      receive_id: "ou_never_seen_anywhere",
      receive_id_type: "open_id",
      text: "hello stranger",
    });
    assert.equal(refused.error_code, "TARGET_NOT_ALLOWED", JSON.stringify(refused));
    assert.match(String(refused.message), /access\.outbound is "admitted": ou_never_seen_anywhere/);
    const group = await bridge.call("send", {
      receive_id: D.team,
      receive_id_type: "chat_id",
      text: "hello team",
    });
    assert.equal(group.error_code, "TARGET_NOT_ALLOWED", JSON.stringify(group));
    assert.equal(sends(), before);

    // An owner may be written to, and so may a chat where they talked.
    const owner = await bridge.call("send", { receive_id: D.alice.openId, text: "hi owner" });
    assert.equal(owner.status, "sent", JSON.stringify(owner));
    emu.userSends({ user: D.alice.openId, chat: D.team, text: "@bot hello", mentions: ["bot"] });
    await bridge.channel.atLeast(1);
    const team = await bridge.call("send", {
      receive_id: D.team,
      receive_id_type: "chat_id",
      text: "hello team",
    });
    assert.equal(team.status, "sent", JSON.stringify(team));
  } finally {
    await bridge.close();
  }
});

Deno.test('access.outbound "admitted": reply and react follow the chat of their message', async () => {
  await using emu = await startEmulator();
  // Open DMs: Bob reaches the agent, but he is not admitted, so the agent cannot answer him.
  const bridge = await start(emu, undefined, {
    owners: [D.alice.openId],
    access: { dm: "open", outbound: "admitted" },
  });
  try {
    await emu.ws.whenReady();
    emu.userSends({ user: D.bob.openId, chat: D.bobP2p, text: "hello from bob" });
    emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "hello from alice" });
    const pushes = await bridge.channel.atLeast(2);
    const idOf = (text: string) => pushes.find((p) => p.content === text)!.meta.message_id!;
    // Presence reactions (OK, Typing) go out on their own; only replies are counted.
    const writes = () =>
      emu.requests({ path: /^\/open-apis\/im\/v1\/messages\/[^/]+\/reply$/ }).length;
    const before = writes();
    const reply = await bridge.call("reply", { message_id: idOf("hello from bob"), text: "hi" });
    assert.equal(reply.error_code, "TARGET_NOT_ALLOWED", JSON.stringify(reply));
    const react = await bridge.call("react", {
      message_id: idOf("hello from bob"),
      operation: "add",
      emoji_type: "THUMBSUP",
    });
    assert.equal(react.error_code, "TARGET_NOT_ALLOWED", JSON.stringify(react));
    assert.equal(writes(), before);
    const bobMessage = idOf("hello from bob").split(":").at(-1)!;
    assert.ok(!emu.reactions(bobMessage).some((r) => r.emojiType === "THUMBSUP"));
    const ok = await bridge.call("reply", { message_id: idOf("hello from alice"), text: "hi" });
    assert.equal(ok.status, "sent", JSON.stringify(ok));
  } finally {
    await bridge.close();
  }
});
