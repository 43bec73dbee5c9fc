/**
 * End to end, once-only presence across a crash: the server reacts `OK` to
 * a DM and is killed (`kill -9`) before it records the message; the
 * restarted server replays the job. Against an emulator that adds a new
 * reaction on every call (whether Feishu dedupes a repeated reaction is not
 * something the bridge relies on), the message still ends with one record
 * and exactly one `OK` by the app.
 */

import assert from "node:assert/strict";
import { DEFAULT_IDS as D, startEmulator } from "../lib/emulator/mod.ts";
import { bridgeConfig, serverPid, startBridge, until } from "./_inbound.ts";

const RESOURCE = "/open-apis/im/v1/messages/:message_id/resources/:file_key";

Deno.test("a crash after the OK reaction and before the record, replayed, leaves one record and one OK", async () => {
  await using emu = await startEmulator({ duplicateReactions: true });
  const config = bridgeConfig(emu.url);
  let bridge = await startBridge({ config });
  try {
    await emu.ws.whenReady();
    // The image never downloads: the job stops after its reactions, before the record.
    emu.faults.add({ method: "GET", path: RESOURCE, respond: "hang" });
    const { messageId, ack } = emu.userSends({
      user: D.alice.openId,
      chat: D.aliceP2p,
      image: { bytes: crypto.getRandomValues(new Uint8Array(256)) },
    });
    await ack;
    await emu.waitFor(() => emu.requests({ method: "GET", path: RESOURCE }).length === 1);
    const oks = () =>
      emu.reactions(messageId!).filter((r) =>
        r.emojiType === "OK" && r.operatorType === "app" && r.operatorId === D.appId
      );
    // The OK waits its turn in the chat's lane and is never awaited by the job: wait for it.
    await emu.waitFor(() => oks().length > 0);
    assert.equal(oks().length, 1);
    assert.deepEqual(await bridge.records(D.aliceP2p), []);

    const workdir = bridge.server.workdir;
    Deno.kill(await serverPid(workdir), "SIGKILL");
    await bridge.close();
    emu.faults.clear();

    bridge = await startBridge({ config, workdir });
    await bridge.updates.atLeast(1);
    await until(async () => {
      const j = (await bridge.status()).journal as Record<string, number>;
      return j.pending === 0 && j.in_flight === 0;
    }, { what: "the journal to drain" });
    const records = await bridge.records(D.aliceP2p);
    assert.deepEqual(records.map((r) => r.feishu_message_id), [messageId]);
    assert.ok(emu.requests({ method: "GET", path: RESOURCE }).length >= 2, "the job replayed");
    assert.equal(oks().length, 1, "exactly one OK by the app");
    // The stale Typing was cleared and the replay shows one of its own (once presence is done).
    await until(
      async () => ((await bridge.account()).presence as { queued: number }).queued === 0,
      {
        what: "presence drained",
      },
    );
    const typing = emu.reactions(messageId!).filter((r) => r.emojiType === "Typing");
    assert.equal(typing.length, 1);
  } finally {
    await bridge.close();
  }
});
