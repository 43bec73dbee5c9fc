/**
 * Chaos, inbound: a burst of user messages over five chats while the long
 * connection is dropped (gracefully and not) every few dozen messages, goes
 * silent once (the watchdog must notice), withholds ACKs (Feishu pushes
 * again), re-pushes delivered events late and duplicated, and fragments
 * frames; a final outage loses some messages for good (Feishu gave up on
 * them) among others it pushes at the reconnect. At the end every message the emulator holds is in `read`
 * (the real MCP client) exactly once, in Feishu's order per chat, and the
 * journal is drained with no dead letter. `CHAOS_MESSAGES` scales the burst
 * (CI default 400; `deno task soak` runs the long form); `CHAOS_SEED` replays.
 */

import assert from "node:assert/strict";
import { DEFAULT_IDS as D, startEmulator } from "../lib/emulator/mod.ts";
import { bridgeConfig, startBridge } from "./_inbound.ts";
import {
  backfillAfter,
  chaosChats,
  chaosRng,
  drainedJournal,
  envCount,
  FaultTally,
  inboundFigures,
  printFigures,
  settledEvents,
} from "./_chaos.ts";

const MESSAGES = envCount("CHAOS_MESSAGES", 400);
/** Messages written during the final outage, about half of which Feishu gives up on. */
const OUTAGE = 40;
const CHATS = 5;
/** Every kind once, then random ones: each run sees each fault at least once. */
const KINDS = ["drop", "drop-hard", "withhold", "duplicate", "silent"] as const;
const EXTRA = ["drop", "drop-hard", "withhold", "duplicate", "none"] as const;

Deno.test("chaos inbound: drops, a silent socket, withheld ACKs, late and duplicate pushes, lost frames: nothing lost, doubled or reordered", async () => {
  const rng = chaosRng("inbound");
  const started = performance.now();
  await using emu = await startEmulator({ ackTimeoutMs: 400 });
  const chats = chaosChats(emu, CHATS);
  const bridge = await startBridge({ config: bridgeConfig(emu.url) });
  const faults = new FaultTally();
  const events: string[] = [];
  try {
    await emu.ws.whenReady();
    const waves = Math.max(KINDS.length, Math.round(MESSAGES / 40));
    const plan: string[] = [...KINDS];
    while (plan.length < waves) plan.push(rng.pick(EXTRA));
    for (let i = plan.length - 1; i > 0; i--) {
      const j = rng.int(0, i);
      [plan[i], plan[j]] = [plan[j]!, plan[i]!];
    }
    let sent = 0;
    for (const [w, kind] of plan.entries()) {
      const size = w === plan.length - 1 ? MESSAGES - sent : Math.min(
        MESSAGES - sent - (plan.length - 1 - w),
        rng.int(Math.ceil(MESSAGES / waves / 2), Math.ceil((MESSAGES / waves) * 1.5)),
      );
      if (kind === "withhold") {
        emu.ws.withholdAcks(true);
        faults.add("withheld_acks");
      }
      const wave: string[] = [];
      for (let i = 0; i < size; i++, sent++) {
        const roll = rng.next();
        const push = roll < 0.08
          ? { duplicate: true }
          : roll < 0.16
          ? { fragments: 3, order: "reverse" as const }
          : undefined;
        if (push) faults.add(Object.keys(push)[0]!);
        const m = emu.userSends({
          user: D.alice.openId,
          chat: rng.pick(chats),
          text: `chaos ${sent}`,
          push,
        });
        events.push(m.eventId);
        wave.push(m.eventId);
      }
      // The fault lands mid-stream: once half of this wave reached the bridge.
      await emu.waitFor(
        () => wave.filter((id) => emu.event(id)!.attempts.length > 0).length >= wave.length / 2,
        { timeoutMs: 60_000 },
      );
      if (kind === "drop" || kind === "drop-hard") {
        faults.add(kind, emu.ws.drop({ graceful: kind === "drop" }));
      } else if (kind === "withhold") {
        emu.ws.withholdAcks(false);
      } else if (kind === "duplicate") {
        const delivered = events.filter((id) => emu.event(id)!.acks.length > 0);
        for (let i = 0; i < 5 && delivered.length; i++) {
          if (emu.ws.duplicate(rng.pick(delivered))) faults.add("late_duplicate");
        }
      } else if (kind === "silent") {
        const before = emu.ws.status().filter((s) => !s.closed).map((s) => s.session_id);
        emu.ws.setSilent(true);
        faults.add("silent");
        // The bridge's watchdog must give up on the silent socket and open another.
        await emu.waitFor(
          () => emu.ws.status().some((s) => !s.closed && s.ready && !before.includes(s.session_id)),
          { timeoutMs: 60_000 },
        );
      }
    }
    await emu.waitFor(() => settledEvents(emu, events), { timeoutMs: 60_000 });
    // An outage: the socket is lost and the next two reconnects are refused. Of
    // what people write meanwhile Feishu pushes some at the reconnect and gives
    // up on the rest (`lost`, as after hours of re-pushes): only the
    // reconnect's backfill finds those, among newer messages already re-pushed.
    const since = new Date().toISOString();
    emu.ws.refuseUpgrade({ status: 503, times: 2 });
    emu.ws.drop();
    faults.add("drop");
    for (let i = 0; i < OUTAGE; i++, sent++) {
      const lost = rng.chance(0.5);
      if (lost) faults.add("lost");
      const m = emu.userSends({
        user: D.alice.openId,
        chat: rng.pick(chats),
        text: `chaos ${sent}`,
        push: lost ? { lost: true } : undefined,
      });
      events.push(m.eventId);
    }
    await backfillAfter(bridge, since);
    await emu.waitFor(() => settledEvents(emu, events), { timeoutMs: 60_000 });
    const journal = await drainedJournal(bridge);
    const figures = await inboundFigures(bridge, emu, chats);
    const account = await bridge.account();
    printFigures("inbound", {
      load: `${MESSAGES} messages over ${CHATS} chats, ${OUTAGE} more in an outage`,
      faults: faults.counts,
      deliveries: events.reduce((n, id) => n + emu.event(id)!.attempts.length, 0),
      reconnects: (account.connection as Record<string, unknown>).reconnects,
      inputs: figures.inputs,
      lost: figures.lost,
      doubled: figures.doubled,
      inversions: figures.inversions,
      journal_pending: journal.pending,
      dead_letters: journal.dead_letters,
      seconds: ((performance.now() - started) / 1000).toFixed(1),
    });
    const why = figures.examples.join(", ");
    assert.equal(figures.inputs, MESSAGES + OUTAGE);
    assert.equal(figures.lost, 0, `lost: ${why}`);
    assert.equal(figures.doubled, 0, `doubled: ${why}`);
    assert.equal(figures.inversions, 0, `inversions: ${why}`);
    assert.equal(journal.dead_letters, 0);
  } finally {
    await bridge.close();
  }
});
