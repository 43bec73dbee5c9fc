/**
 * Chaos, `kill -9`: the server subprocess is killed at random points (a
 * seeded share of a burst ACKed) during inbound bursts over five chats, more
 * messages arrive while it is down, and it restarts on the same workdir;
 * at the end every message is in `read` exactly once, in Feishu's order, and
 * the journal is drained with no dead letter. Then it is killed in the middle
 * of chunked sends (after a seeded number of chunks, with the next chunk's
 * answer hanging or delivered and lost): once the restarted server settled
 * the send (finished under its uuids, or recorded as partial), `read` must
 * show what Feishu holds, and the agent's repeat with the same
 * `idempotency_key` must leave every chunk exactly once.
 * `CHAOS_SEED` replays a run; `CHAOS_KILLS` scales the number of kills.
 */

import assert from "node:assert/strict";
import { DEFAULT_IDS as D, startEmulator } from "../lib/emulator/mod.ts";
import { type Bridge, bridgeConfig, serverPid, startBridge, until } from "./_inbound.ts";
import {
  backfillAfter,
  chaosChats,
  chaosRng,
  drainedJournal,
  envCount,
  inboundFigures,
  printFigures,
  settledEvents,
} from "./_chaos.ts";

type Rec = Record<string, unknown>;
const KILLS = envCount("CHAOS_KILLS", 3);
const SEND = "/open-apis/im/v1/messages";

/** Kills the server of `bridge` with SIGKILL and forgets its client. */
async function kill9(bridge: Bridge): Promise<void> {
  Deno.kill(await serverPid(bridge.server.workdir), "SIGKILL");
  await bridge.close().catch(() => {});
}

Deno.test("chaos kill -9 during inbound bursts: after each restart nothing is lost, doubled or reordered", async () => {
  const rng = chaosRng("kill-inbound");
  const started = performance.now();
  await using emu = await startEmulator({ ackTimeoutMs: 400 });
  const chats = chaosChats(emu, 5);
  const config = bridgeConfig(emu.url);
  let bridge = await startBridge({ config });
  const events: string[] = [];
  const points: string[] = [];
  let n = 0;
  const push = (count: number) => {
    for (let i = 0; i < count; i++, n++) {
      events.push(
        emu.userSends({ user: D.alice.openId, chat: rng.pick(chats), text: `kill ${n}` }).eventId,
      );
    }
  };
  try {
    for (let k = 0; k < KILLS; k++) {
      await emu.ws.whenReady();
      const wave = events.length;
      const size = rng.int(40, 80);
      push(size);
      // Killed once a seeded share of this burst is ACKed (journaled), the rest in flight.
      const share = rng.int(0, size - 1);
      await emu.waitFor(
        () => events.slice(wave).filter((id) => emu.event(id)!.acks.length > 0).length >= share,
        { timeoutMs: 60_000 },
      );
      const acked = events.filter((id) => emu.event(id)!.acks.length > 0).length;
      await kill9(bridge);
      const whileDown = rng.int(0, 20);
      push(whileDown);
      points.push(`${share}/${size}+${whileDown}`);
      bridge = await startBridge({ config, workdir: bridge.server.workdir });
      assert.ok(acked >= share);
    }
    await emu.ws.whenReady();
    push(rng.int(20, 40));
    await emu.waitFor(() => settledEvents(emu, events), { timeoutMs: 60_000 });
    const since = new Date().toISOString();
    emu.ws.drop();
    await backfillAfter(bridge, since);
    const journal = await drainedJournal(bridge);
    const figures = await inboundFigures(bridge, emu, chats);
    printFigures("kill-inbound", {
      load: `${n} messages over 5 chats`,
      kills: KILLS,
      kill_points: points,
      deliveries: events.reduce((s, id) => s + emu.event(id)!.attempts.length, 0),
      inputs: figures.inputs,
      lost: figures.lost,
      doubled: figures.doubled,
      inversions: figures.inversions,
      journal_pending: journal.pending,
      dead_letters: journal.dead_letters,
      seconds: ((performance.now() - started) / 1000).toFixed(1),
    });
    const why = figures.examples.join(", ");
    assert.equal(figures.inputs, n);
    assert.equal(figures.lost, 0, `lost: ${why}`);
    assert.equal(figures.doubled, 0, `doubled: ${why}`);
    assert.equal(figures.inversions, 0, `inversions: ${why}`);
    assert.equal(journal.dead_letters, 0);
  } finally {
    await bridge.close();
  }
});

/** Markdown of `n` ~3000-character paragraphs: one chunk each. */
const paragraphs = (tag: string, n: number) =>
  Array.from({ length: n }, (_, i) => {
    const word = `${tag}-${i} `;
    return word.repeat(Math.floor(3000 / word.length)).trim();
  }).join("\n\n");

Deno.test("chaos kill -9 during chunked sends: the restart shows the true partial state and a repeat with the same key leaves each chunk once", async () => {
  const rng = chaosRng("kill-send");
  const started = performance.now();
  await using emu = await startEmulator();
  const chats = chaosChats(emu, KILLS, "oc_chaos_send");
  const config = bridgeConfig(emu.url);
  let bridge = await startBridge({ config });
  const rounds: Rec[] = [];
  try {
    for (const [r, chat] of chats.entries()) {
      const chunks = rng.int(2, 4);
      const before = rng.int(0, chunks - 1);
      const mode = rng.pick(["hang", "hang-after"] as const);
      const bot = () => emu.messages(chat).filter((m) => m.sender.type === "app");
      // The chunk after `before` delivered ones never answers (or answers after it was created).
      emu.faults.add({
        method: "POST",
        path: SEND,
        times: 1,
        when: (req) =>
          (req.body as { receive_id?: string } | undefined)?.receive_id === chat &&
          bot().length >= before,
        respond: mode,
      });
      const input = {
        receive_id: chat,
        receive_id_type: "chat_id",
        content: { type: "markdown", markdown: paragraphs(`r${r}`, chunks) },
        idempotency_key: `chaos-kill-${rng.seed}-${r}`,
      };
      const call = bridge.call("send", input).catch((e) => ({ died: String(e) }));
      await emu.waitFor(
        () =>
          emu.requests({ method: "POST", path: SEND }).some((q) =>
            q.faulted && (q.body as { receive_id?: string }).receive_id === chat
          ),
        { timeoutMs: 60_000 },
      );
      await kill9(bridge);
      await call;
      const held = bot().length;
      bridge = await startBridge({ config, workdir: bridge.server.workdir });
      // The restart settles the sends the kill cut off (in the background): wait for it.
      await until(async () => {
        const recovery = (await bridge.status()).send_recovery as Rec | undefined;
        return recovery?.running === false;
      }, { what: "the start-up recovery of cut-off sends" });
      const afterRestart = (await bridge.records(chat)).filter((x) => x._direction === "outgoing");
      const shown = afterRestart[0];
      const shownIds = (shown?.message_ids as string[] | undefined ?? []).map((id) =>
        id.split(":")[2]
      );
      // The truth is what Feishu holds once the restart settled the send (it may
      // have finished it under the same uuids): nothing, some chunks (partial) or
      // all of them (sent).
      const heldNow = bot().length;
      const truePartial = heldNow === 0
        ? shownIds.length === 0 && shown?.status !== "sent"
        : afterRestart.length === 1 &&
          shown?.status === (heldNow === chunks ? "sent" : "partial") &&
          JSON.stringify(shownIds) === JSON.stringify(bot().map((m) => m.messageId));
      const repeat = await bridge.call("send", input);
      const final = bot();
      const uuids = new Set(final.map((m) => m.uuid));
      const records = (await bridge.records(chat)).filter((x) => x._direction === "outgoing");
      rounds.push({
        chunks,
        killed_after: before,
        mode,
        held_at_kill: held,
        held_after_restart: heldNow,
        shown_after_restart: shown ? `${shown.status}:${shownIds.length}` : "nothing",
        true_partial: truePartial,
        repeat: repeat.status,
        held_after_repeat: final.length,
        doubled: final.length - uuids.size,
        lost: chunks - uuids.size,
        records: records.map((x) => x.status),
      });
    }
    const journal = await drainedJournal(bridge);
    printFigures("kill-send", {
      load: `${KILLS} chunked sends`,
      kills: KILLS,
      rounds,
      lost: rounds.reduce((s, x) => s + Number(x.lost), 0),
      doubled: rounds.reduce((s, x) => s + Number(x.doubled), 0),
      untraced: rounds.filter((x) => !x.true_partial).length,
      dead_letters: journal.dead_letters,
      seconds: ((performance.now() - started) / 1000).toFixed(1),
    });
    for (const x of rounds) {
      assert.equal(x.repeat, "sent", JSON.stringify(x));
      assert.equal(x.lost, 0, JSON.stringify(x));
      assert.equal(x.doubled, 0, JSON.stringify(x));
      assert.deepEqual(x.records, ["sent"], JSON.stringify(x));
    }
    for (const x of rounds) {
      assert.ok(x.true_partial, `the restart lost the trace of a send: ${JSON.stringify(x)}`);
    }
    assert.equal(journal.dead_letters, 0);
  } finally {
    await bridge.close();
  }
});
