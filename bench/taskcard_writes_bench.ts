// deno-lint-ignore-file no-console -- a benchmark reports on stdout
/**
 * Benchmark of the Task Cards' write budget: card writes (API calls: sends,
 * edits, deletes) the real server makes against the emulator, in the
 * default `conversation` scope and, as the baseline, in the `agent` scope
 * (one frame everywhere, as the original did; it runs under the same budget,
 * so the original's figures were higher still).
 *
 * - One conversation, 10 questions, an agent that answers each: per turn
 *   the agent turns `active`, writes a round (text and a call naming the
 *   chat), replies in the chat, writes a closing round, turns `idle`.
 *   Figure: card writes per user message.
 * - 100 chats woken and finished (idle routes, active within the hour,
 *   each with its card), then one more chat woken and 5 events-log rows
 *   of it, each seen by its own poll. Figure: writes to the 100 idle
 *   routes' cards (target 0) and to the working chat's card.
 *
 * Waits use the emulator's state and status; only settling (nothing more
 * written for two polls) is timed. Run:
 * `deno run --no-prompt --allow-read --allow-write --allow-net=127.0.0.1 --allow-env --allow-run bench/taskcard_writes_bench.ts`.
 * @module
 */

import { DEFAULT_IDS as D, type Emulator, startEmulator } from "../lib/emulator/mod.ts";
import type { Bridge } from "../tests/_inbound.ts";
import {
  agentDir,
  agentState,
  appendEvents,
  cards,
  cardShowing,
  cardWrites,
  countWrites,
  diary,
  lastOf,
  start,
  taskStatus,
  toolCall,
} from "../tests/_taskcards.ts";
import { type BenchResult, formatResults } from "./_types.ts";
import { benchChats } from "./_inbound_load.ts";

const QUESTIONS = 10;
const IDLE_ROUTES = 100;
const ROWS = 5;
type Scope = "conversation" | "agent";

/** Resolves once no card write happened for two polls in a row. */
async function settle(emu: Emulator): Promise<void> {
  let before = -1;
  for (;;) {
    const now = cardWrites(emu).length;
    if (now === before) return;
    before = now;
    await new Promise((r) => setTimeout(r, 2100));
  }
}

/** One answered question: returns when the card sits below the answer and DONE is on. */
async function answer(emu: Emulator, bridge: Bridge, workdir: string, n: number): Promise<void> {
  const q = emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: `question ${n}` });
  const pushes = await bridge.channel.atLeast(n);
  const asked = pushes[n - 1]!.meta.message_id;
  await agentState(workdir, "active");
  await appendEvents(
    workdir,
    diary(`looking into ${n}`, `q${n}a`),
    toolCall("feishu", `answer question ${n}`, `q${n}a`, { input: { message_id: asked } }),
  );
  await cardShowing(emu, D.aliceP2p, (f) => f.includes(`answer question ${n}`));
  await bridge.call("reply", { message_id: asked, text: `answer ${n}` });
  await appendEvents(workdir, diary(`answered ${n}`, `q${n}b`));
  await agentState(workdir, "idle");
  await emu.waitFor(() => emu.reactions(q.messageId!).find((r) => r.emojiType === "DONE"), {
    timeoutMs: 60_000,
  });
  await emu.waitFor(
    () => lastOf(emu, D.aliceP2p)?.messageId === cards(emu, D.aliceP2p)[0]?.messageId || undefined,
    { timeoutMs: 60_000, description: "the card below the answer" },
  );
}

async function perMessage(scope: Scope): Promise<{ writes: number; deletes: number }> {
  await using emu = await startEmulator();
  const workdir = await agentDir();
  const bridge = await start(emu, workdir, { scope });
  try {
    await emu.ws.whenReady();
    for (let n = 1; n <= QUESTIONS; n++) await answer(emu, bridge, workdir, n);
    await settle(emu);
    const w = countWrites(cardWrites(emu, D.aliceP2p));
    return { writes: (w.send + w.edit + w.delete) / QUESTIONS, deletes: w.delete / QUESTIONS };
  } finally {
    await bridge.close();
  }
}

async function idleRoutes(scope: Scope): Promise<{ idle: number; working: number }> {
  await using emu = await startEmulator();
  const chats = benchChats(emu, IDLE_ROUTES);
  const workdir = await agentDir();
  const bridge = await start(emu, workdir, { scope });
  try {
    await emu.ws.whenReady();
    for (const chat of chats) emu.userSends({ user: D.alice.openId, chat, text: "hello" });
    await bridge.channel.atLeast(IDLE_ROUTES, { guardMs: 300_000 });
    await agentState(workdir, "active");
    await appendEvents(workdir, diary("greeting everyone", "hello"));
    await emu.waitFor(() => chats.every((c) => cards(emu, c).length === 1) || undefined, {
      timeoutMs: 300_000,
      description: "a card in every chat",
    });
    await agentState(workdir, "idle");
    for (;;) {
      if ((await taskStatus(bridge)).working_routes === 0) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    await settle(emu);
    const before = cardWrites(emu).length;
    emu.userSends({ user: D.alice.openId, chat: D.aliceP2p, text: "count to five" });
    await cardShowing(emu, D.aliceP2p, (f) => f.startsWith("📋"));
    await agentState(workdir, "active");
    for (let i = 1; i <= ROWS; i++) {
      await appendEvents(workdir, diary(`row ${i}`, `r${i}`));
      await cardShowing(emu, D.aliceP2p, (f) => f.includes(`row ${i}`));
    }
    await settle(emu);
    const after = cardWrites(emu).slice(before);
    const working = after.filter((w) => w.chatId === D.aliceP2p && w.kind === "edit").length;
    const idle = after.filter((w) => w.chatId !== D.aliceP2p).length;
    return { idle, working };
  } finally {
    await bridge.close();
  }
}

/** Runs both scenarios in both scopes (a few minutes) and returns the figures. */
export async function run(): Promise<BenchResult[]> {
  const out: BenchResult[] = [];
  const own = await perMessage("conversation");
  const all = await perMessage("agent");
  out.push({
    name: `card writes per user message (${QUESTIONS} answered questions, one DM)`,
    value: own.writes,
    unit: "writes",
    baseline: all.writes,
    ratio: own.writes / all.writes,
    note: `deletes per message ${own.deletes} (agent scope ${all.deletes})`,
  });
  const ownIdle = await idleRoutes("conversation");
  const allIdle = await idleRoutes("agent");
  out.push({
    name: `writes to ${IDLE_ROUTES} idle routes' cards for ${ROWS} rows of one chat`,
    value: ownIdle.idle,
    unit: "writes",
    baseline: allIdle.idle,
    target: "0",
    note: `edits of the working chat's card ${ownIdle.working} (agent scope ${allIdle.working})`,
  });
  return out;
}

if (import.meta.main) console.log(formatResults(await run()));
