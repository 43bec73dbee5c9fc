/**
 * End to end, presence never delays the important work: with the chat's
 * presence writes held by Feishu (a reaction request the emulator keeps until
 * its clock moves), a burst of 150 messages and the next one are all stored,
 * and the agent's `send` returns once its message is out, while the OK
 * backlog stays bounded (the rest is shed and counted in the status) and the
 * Typing is still removed once Feishu answers. The removal stays reliable
 * although nobody waits for it: a Typing whose add a killed server never saw
 * answered is removed at the next start, and one whose removal failed stays
 * stored and is removed at the chat's next message; a Typing that waits to
 * go out moves to the newest message. Each claim is read from the
 * emulator's request log and the status, never from elapsed time.
 */

import assert from "node:assert/strict";
import {
  DEFAULT_IDS as D,
  type Emulator,
  ManualEmuClock,
  startEmulator,
} from "../lib/emulator/mod.ts";
import { type Bridge, bridgeConfig, serverPid, startBridge, until } from "./_inbound.ts";

const REACTIONS = "/open-apis/im/v1/messages/:message_id/reactions";
const REACTION = "/open-apis/im/v1/messages/:message_id/reactions/:reaction_id";
/** How long the emulator holds a faulted request (emulator clock: moved by the test only). */
const HOLD_MS = 600_000;
/** The burst of one chat's messages. */
const BURST = 150;
/** The OK writes one chat may have waiting (`SEEN_BACKLOG` in lib/presence). */
const SEEN_BACKLOG = 10;

type Rec = Record<string, unknown>;

/** The reaction writes (adds with their emoji, removals) the emulator has seen, in order. */
function reactionWrites(emu: Emulator): string[] {
  return emu.requests().flatMap((r) => {
    if (r.method === "DELETE" && r.path.includes("/reactions/")) return ["remove"];
    if (r.method !== "POST" || !r.path.endsWith("/reactions")) return [];
    return [String(((r.body as Rec).reaction_type as Rec).emoji_type)];
  });
}

const appReactions = (emu: Emulator, messageId: string, emoji: string) =>
  emu.reactions(messageId).filter((r) => r.emojiType === emoji && r.operatorType === "app");

async function presence(bridge: Bridge): Promise<{ queued: number; shed: number }> {
  return (await bridge.account()).presence as { queued: number; shed: number };
}

/** Alice sends `n` messages at once; resolves with their Feishu ids once all are stored. */
async function burst(emu: Emulator, bridge: Bridge, n: number, label: string): Promise<string[]> {
  const stored = bridge.updates.items.length;
  const ids = Array.from(
    { length: n },
    (_, i) =>
      emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: `${label} ${i}` }).messageId!,
  );
  await bridge.updates.atLeast(stored + n);
  return ids;
}

Deno.test("presence: a burst of 150 messages and the next one are stored while the chat's first OK is still held by Feishu; the OK backlog is bounded and counted", async () => {
  const clock = new ManualEmuClock(Date.now());
  await using emu = await startEmulator({ clock });
  emu.faults.setChatRateLimit(5);
  // Feishu keeps the chat's first reaction write (the first message's OK) unanswered.
  emu.faults.add({ method: "POST", path: REACTIONS, times: 1, respond: { delayMs: HOLD_MS } });
  const bridge = await startBridge({ config: bridgeConfig(emu.url) });
  try {
    await emu.ws.whenReady();
    const ids = await burst(emu, bridge, BURST, "burst");
    const [next] = await burst(emu, bridge, 1, "next");

    // Every message is stored (and the agent woken) with only the held OK sent.
    assert.deepEqual(reactionWrites(emu), ["OK"]);
    const stored = await bridge.records(D.aliceP2p);
    assert.equal(stored.length, BURST + 1);
    assert.equal(stored.at(-1)!.text, "next 0");
    // Waiting: the OKs up to the bound (the held one included) and the first message's Typing,
    // already on its way; the other OKs are shed, and so is every later message's Typing wish
    // but the newest's (each replaced the one before it, none went out).
    assert.deepEqual(await presence(bridge), {
      queued: SEEN_BACKLOG + 1,
      shed: BURST + 1 - SEEN_BACKLOG + (BURST - 1),
    });

    // Feishu answers: the first Typing (ahead of the OKs) goes out and then moves to the newest
    // message, where a person looks; the bounded OKs go out, nothing more.
    clock.advance(HOLD_MS);
    await emu.waitFor(() => appReactions(emu, next!, "Typing").length);
    await until(async () => (await presence(bridge)).queued === 0, { what: "presence drained" });
    const writes = reactionWrites(emu);
    assert.equal(writes.filter((w) => w === "OK").length, SEEN_BACKLOG);
    assert.deepEqual(writes.slice(0, 2), ["OK", "Typing"]);
    assert.equal(writes.filter((w) => w === "Typing").length, 2);
    assert.deepEqual(appReactions(emu, ids[0]!, "Typing"), []);
    assert.deepEqual(appReactions(emu, next!, "OK"), []);

    // The agent answers: the Typing goes.
    const out = await bridge.call("send", {
      receive_id: D.aliceP2p,
      receive_id_type: "chat_id",
      text: "answer",
    });
    assert.equal(out.status, "sent");
    await emu.waitFor(() => appReactions(emu, next!, "Typing").length === 0);
    // The stored Typing goes once Feishu's answer is back.
    await until(async () => (await bridge.account()).typing_pending === 0, {
      what: "no Typing stored",
    });
  } finally {
    await bridge.close();
  }
});

Deno.test("presence: the agent's send returns once its message is out, while the burst's OKs and the Typing removal still wait", async () => {
  const clock = new ManualEmuClock(Date.now());
  await using emu = await startEmulator({ clock });
  emu.faults.setChatRateLimit(5);
  const bridge = await startBridge({ config: bridgeConfig(emu.url) });
  try {
    await emu.ws.whenReady();
    const [first] = await burst(emu, bridge, 1, "hello");
    await emu.waitFor(() => appReactions(emu, first!, "Typing").length);
    const before = reactionWrites(emu).length;

    // Feishu holds the burst's first OK, so the backlog builds behind it.
    emu.faults.add({ method: "POST", path: REACTIONS, times: 1, respond: { delayMs: HOLD_MS } });
    const ids = await burst(emu, bridge, BURST, "burst");
    assert.deepEqual(reactionWrites(emu).slice(before), ["OK"]);
    // Feishu answers it: the chat's Typing moves to the newest message (ahead of the OKs).
    clock.advance(HOLD_MS);
    const newest = ids.at(-1)!;
    await emu.waitFor(() => appReactions(emu, newest, "Typing").length);
    assert.deepEqual(appReactions(emu, first!, "Typing"), []);

    // From now on Feishu holds every Typing removal.
    emu.faults.add({ method: "DELETE", path: REACTION, respond: { delayMs: HOLD_MS } });
    const out = await bridge.call("send", {
      receive_id: D.aliceP2p,
      receive_id_type: "chat_id",
      text: "answer",
    });
    assert.equal(out.status, "sent");
    const atResult = reactionWrites(emu).slice(before);

    // The answer is out, and its result waited neither for the Typing removal (held: the
    // Typing is still on) nor for the OKs queued before it.
    assert.ok(emu.messages(D.aliceP2p).some((m) => m.sender.type === "app"));
    assert.equal(appReactions(emu, newest, "Typing").length, 1);
    assert.ok((await presence(bridge)).queued > 0, "the removal is still under way");
    assert.ok(
      atResult.filter((w) => w === "OK").length <= SEEN_BACKLOG,
      `OKs sent before the send's result: ${atResult.join()}`,
    );

    // Feishu answers the removal: the Typing goes; the presence backlog drains.
    const removals = atResult.filter((w) => w === "remove").length;
    await emu.waitFor(() =>
      reactionWrites(emu).slice(before).filter((w) => w === "remove").length > removals
    );
    clock.advance(HOLD_MS);
    await emu.waitFor(() => appReactions(emu, newest, "Typing").length === 0);
    await until(async () => (await presence(bridge)).queued === 0, { what: "presence drained" });
    assert.equal(reactionWrites(emu).slice(before).filter((w) => w === "OK").length, SEEN_BACKLOG);
    // The stored Typing goes once Feishu's answer is back.
    await until(async () => (await bridge.account()).typing_pending === 0, {
      what: "no Typing stored",
    });
  } finally {
    await bridge.close();
  }
});

Deno.test("presence: a Typing whose add a crashed run never saw answered is looked up and removed at the next start", async () => {
  const clock = new ManualEmuClock(Date.now());
  await using emu = await startEmulator({ clock });
  const config = bridgeConfig(emu.url);
  let bridge = await startBridge({ config });
  try {
    await emu.ws.whenReady();
    // Feishu holds the Typing add; the message is stored meanwhile, then the server dies.
    emu.faults.add({
      method: "POST",
      path: REACTIONS,
      times: 1,
      when: (r) => ((r.body as Rec).reaction_type as Rec).emoji_type === "Typing",
      respond: { delayMs: HOLD_MS },
    });
    const [message] = await burst(emu, bridge, 1, "hello");
    await emu.waitFor(() => reactionWrites(emu).includes("Typing"));
    await until(async () => ((await bridge.status()).journal as Rec).in_flight === 0, {
      what: "the job done",
    });
    const workdir = bridge.server.workdir;
    Deno.kill(await serverPid(workdir), "SIGKILL");
    await bridge.close();
    // Feishu adds it after all: a Typing nobody has stored.
    clock.advance(HOLD_MS);
    await emu.waitFor(() => appReactions(emu, message!, "Typing").length);

    bridge = await startBridge({ config, workdir });
    // Nothing signals a removal that never comes: a bounded poll turns it into a failure.
    await until(() => Promise.resolve(appReactions(emu, message!, "Typing").length === 0), {
      what: "the unstored Typing removed",
    });
    assert.equal(reactionWrites(emu).filter((w) => w === "Typing").length, 1, "no second add");
    await until(async () => (await bridge.account()).typing_pending === 0, {
      what: "no Typing stored",
    });
  } finally {
    await bridge.close();
  }
});

Deno.test("presence: a Typing removal Feishu fails stays stored and is made again at the chat's next message", async () => {
  await using emu = await startEmulator();
  const bridge = await startBridge({ config: bridgeConfig(emu.url) });
  try {
    await emu.ws.whenReady();
    const [first] = await burst(emu, bridge, 1, "hello");
    await emu.waitFor(() => appReactions(emu, first!, "Typing").length);
    emu.faults.add({ method: "DELETE", path: REACTION, times: 1, respond: { status: 503 } });
    const out = await bridge.call("send", {
      receive_id: D.aliceP2p,
      receive_id_type: "chat_id",
      text: "answer",
    });
    assert.equal(out.status, "sent");
    await emu.waitFor(() => emu.requests({ method: "DELETE", path: REACTION })[0]?.status);
    await until(async () => (await presence(bridge)).queued === 0, { what: "presence drained" });
    // The Typing is still on Feishu, and still stored, so it is not forgotten.
    assert.equal(appReactions(emu, first!, "Typing").length, 1);
    assert.equal((await bridge.account()).typing_pending, 1);

    const [second] = await burst(emu, bridge, 1, "again");
    await until(
      () =>
        Promise.resolve(
          appReactions(emu, first!, "Typing").length === 0 &&
            appReactions(emu, second!, "Typing").length === 1,
        ),
      { what: "the old Typing removed and a new one shown" },
    );
  } finally {
    await bridge.close();
  }
});

Deno.test("presence: a Typing that has not gone out yet moves to the newest message (counted as shed)", async () => {
  const clock = new ManualEmuClock(Date.now());
  await using emu = await startEmulator({ clock });
  const bridge = await startBridge({ config: bridgeConfig(emu.url) });
  try {
    await emu.ws.whenReady();
    const [first] = await burst(emu, bridge, 1, "hello");
    await emu.waitFor(() => appReactions(emu, first!, "Typing").length);
    // Feishu holds the removal of the first Typing: the next Typing waits behind it.
    emu.faults.add({ method: "DELETE", path: REACTION, times: 1, respond: { delayMs: HOLD_MS } });
    await bridge.call("send", { receive_id: D.aliceP2p, receive_id_type: "chat_id", text: "hi" });
    await emu.waitFor(() => reactionWrites(emu).includes("remove"));
    const [second] = await burst(emu, bridge, 1, "two");
    const [third] = await burst(emu, bridge, 1, "three");
    assert.equal((await presence(bridge)).shed, 1);

    clock.advance(HOLD_MS);
    await emu.waitFor(() => appReactions(emu, third!, "Typing").length);
    await until(async () => (await presence(bridge)).queued === 0, { what: "presence drained" });
    assert.deepEqual(appReactions(emu, first!, "Typing"), []);
    assert.deepEqual(appReactions(emu, second!, "Typing"), []);
    assert.equal(reactionWrites(emu).filter((w) => w === "Typing").length, 2);
  } finally {
    await bridge.close();
  }
});

Deno.test("presence: a shown Typing moves to a newer pending message, and goes at the first answer", async () => {
  await using emu = await startEmulator();
  const bridge = await startBridge({ config: bridgeConfig(emu.url) });
  try {
    await emu.ws.whenReady();
    const [first] = await burst(emu, bridge, 1, "one");
    await emu.waitFor(() => appReactions(emu, first!, "Typing").length);
    const [second] = await burst(emu, bridge, 1, "two");
    // The person looks at their newest message: the Typing is there, and only there.
    await emu.waitFor(() => appReactions(emu, second!, "Typing").length);
    await until(async () => (await presence(bridge)).queued === 0, { what: "presence drained" });
    assert.deepEqual(appReactions(emu, first!, "Typing"), []);
    // Per message: an OK each; the Typing cost one add, then one move (a removal and an add).
    assert.deepEqual(reactionWrites(emu).sort(), ["OK", "OK", "Typing", "Typing", "remove"]);
    await bridge.call("send", { receive_id: D.aliceP2p, receive_id_type: "chat_id", text: "hi" });
    await emu.waitFor(() => appReactions(emu, second!, "Typing").length === 0);
    assert.equal(reactionWrites(emu).filter((w) => w === "remove").length, 2);
  } finally {
    await bridge.close();
  }
});
