/**
 * End to end, what Feishu will not push again is caught up: a reconnect's
 * backfill reads only the gap since each chat's newest stored message (list
 * calls and re-read messages counted from the emulator's request log), and
 * a full disk under the server's workdir (a real tmpfs) loses no message:
 * intake refuses to ACK what it could not write, the server stays up and
 * says `disk_full`, and once space returns a catch-up backfill admits every
 * message exactly once, also those whose re-pushes Feishu gave up on.
 */

import assert from "node:assert/strict";
import {
  DEFAULT_IDS as D,
  type Emulator,
  ManualEmuClock,
  startEmulator,
} from "../lib/emulator/mod.ts";
import { mountSmallDisk, smallDiskUnavailable } from "../lib/core/testdata/small_disk.ts";
import { type Bridge, bridgeConfig, startBridge, until } from "./_inbound.ts";

type Rec = Record<string, unknown>;
const CHATS = [D.aliceP2p, D.bobP2p, D.team];
const LIST = "/open-apis/im/v1/messages";

/** The n-th message of a burst: round robin over three chats (the group one mentions the bot). */
function burstMessage(emu: Emulator, n: number, push?: Record<string, unknown>) {
  const chat = CHATS[n % 3]!;
  const user = chat === D.bobP2p ? D.bob.openId : D.alice.openId;
  return emu.userSends({
    user,
    chat,
    text: `burst ${n}`,
    mentions: chat === D.team ? ["bot"] : [],
    push,
  });
}

/** The history list calls (GET of the messages collection) logged so far. */
function listCalls(emu: Emulator) {
  return emu.requests({ method: "GET", path: LIST });
}

/** Waits until the journal holds nothing and runs nothing. */
function drained(bridge: Bridge): Promise<Rec> {
  return until(async () => {
    const j = (await bridge.status()).journal as Record<string, number>;
    return j.pending === 0 && j.in_flight === 0 && j;
  }, { what: "the journal to drain" });
}

/** Asserts each chat holds exactly these messages once, in the order they were sent. */
async function assertChatsHold(bridge: Bridge, sent: { chat: string; id: string }[]) {
  for (const chat of CHATS) {
    const ids = (await bridge.records(chat)).map((r) => String(r.feishu_message_id));
    assert.deepEqual(ids, sent.filter((s) => s.chat === chat).map((s) => s.id), chat);
  }
}

Deno.test("a reconnect's backfill reads only the gap: one list call per chat and only each chat's newest stored message again", async () => {
  // Each second of Feishu's clock, one message in each chat: 60 per chat, over a page of 50.
  const clock = new ManualEmuClock(Date.now());
  await using emu = await startEmulator({ clock });
  const bridge = await startBridge({ config: bridgeConfig(emu.url) });
  try {
    await emu.ws.whenReady();
    const sent: { chat: string; id: string }[] = [];
    for (let n = 0; n < 180; n++) {
      const m = burstMessage(emu, n);
      sent.push({ chat: CHATS[n % 3]!, id: m.messageId! });
      await m.ack;
      if (n % 3 === 2) clock.advance(1000);
    }
    await bridge.updates.atLeast(180);
    await drained(bridge);
    const mark = listCalls(emu).length;
    // The connection drops; Feishu gives up on what is sent meanwhile.
    emu.ws.drop();
    for (let n = 180; n < 186; n++) {
      const m = burstMessage(emu, n, { lost: true });
      sent.push({ chat: CHATS[n % 3]!, id: m.messageId! });
      if (n % 3 === 2) clock.advance(1000);
    }
    await bridge.updates.atLeast(186);
    const backfill = await until(async () => {
      const b = (await bridge.account()).backfill as Rec | null;
      return b?.queued === 6 && b;
    }, { what: "the reconnect's backfill" });
    await drained(bridge);
    await assertChatsHold(bridge, sent);
    // The known chats' gap; Topics, never heard from, is discovered and read once more.
    const all = listCalls(emu).slice(mark);
    const calls = all.filter((c) => (CHATS as string[]).includes(String(c.query.container_id)));
    assert.deepEqual(all.filter((c) => !calls.includes(c)).map((c) => c.query.container_id), [
      D.topics,
    ]);
    assert.equal(backfill.discovered, 1);
    const reRead = Number(backfill.seen) - Number(backfill.queued);
    // deno-lint-ignore no-console
    console.error(`reconnect backfill: ${calls.length} list calls, ${reRead} messages re-read`);
    // Before: 6 list calls (two pages a chat) re-reading the last 60 s: all 180 stored messages.
    assert.equal(calls.length, 3);
    assert.equal(reRead, 3);
    assert.equal(backfill.truncated, 0);
  } finally {
    await bridge.close();
  }
});

const unavailable = await smallDiskUnavailable();
// deno-lint-ignore no-console -- an ignored test says why
if (unavailable) console.error(`full-disk end-to-end test ignored: ${unavailable}`);

Deno.test({
  name:
    "a full disk loses no message: not ACKed, server up and disk_full, then caught up exactly once, in order",
  ignore: unavailable !== null,
  fn: async () => {
    // Feishu pushes a failed event once more, then gives up: only the catch-up can find it.
    await using emu = await startEmulator({ ackTimeoutMs: 500, maxRedeliveries: 1 });
    await using disk = await mountSmallDisk(24 * 1024);
    const bridge = await startBridge({ config: bridgeConfig(emu.url), workdir: disk.dir });
    try {
      await emu.ws.whenReady();
      const sent: { chat: string; id: string }[] = [];
      const send = (n: number, push?: Record<string, unknown>) => {
        const m = burstMessage(emu, n, push);
        sent.push({ chat: CHATS[n % 3]!, id: m.messageId! });
        return m;
      };
      for (let n = 0; n < 9; n++) send(n);
      await bridge.updates.atLeast(9);

      await disk.fill();
      const during: ReturnType<typeof send>[] = [];
      for (let n = 9; n < 21; n++) during.push(send(n));
      // And some Feishu never pushes at all.
      for (let n = 21; n < 24; n++) send(n, { lost: true });
      // Every push of the ones sent during the outage is answered; Feishu gives up on the failed ones.
      await emu.waitFor(() =>
        during.every((m) => ["expired", "acked"].includes(emu.event(m.eventId)?.status ?? "")) ||
        undefined
      );
      const failed = during.filter((m) => emu.event(m.eventId)!.status === "expired");
      assert.ok(failed.every((m) => emu.event(m.eventId)!.failedAcks.length > 0));
      assert.ok(failed.length > 0, "some intake commits must fail");
      const status = await bridge.status();
      const storage = status.storage as Rec;
      assert.equal(storage.state, "disk_full");
      assert.match(String(storage.last_error), /^disk full: /);
      assert.equal(status.status, "degraded");

      await disk.free();
      await bridge.updates.atLeast(24);
      const journal = await drained(bridge);
      assert.equal(journal.dead_letters, 0);
      await assertChatsHold(bridge, sent);
      const after = (await bridge.status()).storage as Rec;
      assert.equal(after.state, "ok");
      assert.ok(Number(after.catch_ups) >= 1);
      assert.ok(Number(after.failed_writes) >= failed.length);
      const log = bridge.server.stderr();
      assert.match(log, /disk full: /);
      assert.doesNotMatch(log, /cannot rollback/);
      assert.doesNotMatch(log, /panicked|KV queue dequeue failed/);
    } finally {
      await bridge.close();
    }
  },
});
