// deno-lint-ignore-file no-console -- a benchmark reports on stdout
/**
 * The flood: N chats each get one user message, pushed as fast as the
 * emulator can, into our server spawned over stdio as an agent spawns it.
 * Every chat has its own journal worker, so this is the case where the number
 * of handlers running at once matters. Measured in one run:
 * - peak server RSS (sampled every 100 ms) against the same server's idle RSS
 *   just before the flood;
 * - the longest MCP call stall: `check` called back to back during the flood,
 *   its longest round trip, against its median once everything is visible
 *   (the same N conversations in the answer, nothing else running). `check`
 *   lists every conversation, so at N = 10 000 it costs about a second by
 *   itself; `accounts`, called back to back beside it, shows the stall
 *   without that cost;
 * - re-deliveries the emulator made because an ACK came late;
 * - time until `check` counts all N messages.
 *
 * N is 10 000, or `FEISHU_BENCH_FLOOD_CHATS`.
 * Run: `deno run -A bench/flood_bench.ts`.
 * @module
 */

import { DEFAULT_IDS as D, type Emulator, startEmulator } from "../lib/emulator/mod.ts";
import { bridgeConfig, serverPid, startBridge } from "../tests/_inbound.ts";
import { type BenchResult, formatResults, median } from "./_types.ts";
import { benchChats, rssMiB } from "./_inbound_load.ts";

const SAMPLE_MS = 100;
/** Pushes between two yields: the bench's own event loop (ACKs, probes, samples) keeps turning. */
const BATCH = 200;
/** Turns a flood that never becomes visible into an error instead of a hang. */
const GUARD_MS = 45 * 60_000;
const round = (x: number, digits = 2) => Number(x.toFixed(digits));
const tick = () => new Promise((r) => setTimeout(r, 0));

function floodSize(): number {
  const raw = Deno.env.get("FEISHU_BENCH_FLOOD_CHATS");
  const n = raw ? Number(raw) : 10_000;
  if (!Number.isInteger(n) || n < 1) {
    throw new RangeError(
      `Expected FEISHU_BENCH_FLOOD_CHATS to be a positive integer but found ${raw}`,
    );
  }
  return n;
}

/** One message to every chat, `BATCH` at a time; resolves with every ACK. */
async function push(emu: Emulator, chats: string[]): Promise<Promise<unknown>[]> {
  const acks: Promise<unknown>[] = [];
  for (let i = 0; i < chats.length; i++) {
    acks.push(emu.userSends({ user: D.alice.openId, chat: chats[i]!, text: `flood ${i}` }).ack);
    if (i % BATCH === BATCH - 1) await tick();
  }
  return acks;
}

/** Samples a process's RSS until stopped, which resolves with the largest seen. */
function sampleRss(pid: number): { stop(): Promise<number> } {
  let peak = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      peak = Math.max(peak, await rssMiB(pid));
      await new Promise((r) => setTimeout(r, SAMPLE_MS));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return peak;
    },
  };
}

/** Round trips of one call made back to back. */
interface Probe {
  longest: number;
  calls: number;
}

/** Calls `call` back to back until `done()`; `call` may end the probing itself. */
async function probe(call: () => Promise<unknown>, done: () => boolean): Promise<Probe> {
  const p: Probe = { longest: 0, calls: 0 };
  while (!done()) {
    const t = performance.now();
    await call();
    p.longest = Math.max(p.longest, performance.now() - t);
    p.calls++;
  }
  return p;
}

/** Median round trip of `call` over 5 calls. */
async function idleRoundTrip(call: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    await call();
    times.push(performance.now() - t);
  }
  return median(times);
}

interface FloodFigures {
  idleRss: number;
  peakRss: number;
  check: Probe;
  idleCheck: number;
  light: Probe;
  idleLight: number;
  redeliveries: number;
  ackMs: number;
  visibleMs: number;
}

async function flood(n: number): Promise<FloodFigures> {
  await using emu = await startEmulator();
  const chats = benchChats(emu, n);
  const bridge = await startBridge({ config: bridgeConfig(emu.url) });
  try {
    await emu.ws.whenReady();
    await bridge.call("check");
    const pid = await serverPid(bridge.server.workdir);
    const idleRss = await rssMiB(pid);
    const rss = sampleRss(pid);
    const t0 = performance.now();
    let ackMs = 0;
    const acked = push(emu, chats).then((acks) => Promise.all(acks))
      .then(() => (ackMs = performance.now() - t0));
    let visibleMs = 0;
    const visible = () => visibleMs > 0;
    const [check, light] = await Promise.all([
      probe(async () => {
        if (performance.now() - t0 > GUARD_MS) throw new Error(`Expected ${n} messages visible`);
        const out = await bridge.call("check");
        if (Number(out.total) >= n) visibleMs = performance.now() - t0;
      }, visible),
      probe(() => bridge.call("accounts"), visible),
    ]);
    await acked;
    const peakRss = await rss.stop();
    const redeliveries = emu.events().reduce((sum, e) => sum + e.redeliveries, 0);
    return {
      idleRss,
      peakRss,
      check,
      idleCheck: await idleRoundTrip(() => bridge.call("check")),
      light,
      idleLight: await idleRoundTrip(() => bridge.call("accounts")),
      redeliveries,
      ackMs,
      visibleMs,
    };
  } finally {
    await bridge.close();
  }
}

/** Runs the flood once (N = 10 000: a few minutes). */
export async function run(): Promise<BenchResult[]> {
  const n = floodSize();
  const f = await flood(n);
  return [
    {
      name: `server peak RSS during a flood of ${n} one-message chats`,
      value: round(f.peakRss, 1),
      unit: "MiB",
      baseline: round(f.idleRss, 1),
      ratio: round(f.peakRss / f.idleRss),
      target: "≤ 2× idle",
      note: `baseline: the same server idle just before the flood; sampled every ${SAMPLE_MS} ms`,
    },
    {
      name: `longest MCP call stall during the flood (check round trip, ${f.check.calls} calls)`,
      value: round(f.check.longest, 0),
      unit: "ms",
      baseline: round(f.idleCheck, 1),
      ratio: round(f.check.longest / f.idleCheck),
      target: "≤ 1000 ms",
      note: `baseline: check's median once all ${n} conversations are in and nothing else runs`,
    },
    {
      name: `longest MCP call stall during the flood (accounts round trip, ${f.light.calls} calls)`,
      value: round(f.light.longest, 0),
      unit: "ms",
      baseline: round(f.idleLight, 1),
      ratio: round(f.light.longest / f.idleLight),
      target: "≤ 1000 ms",
      note: "a call that costs next to nothing itself, made beside the check calls",
    },
    {
      name: "re-deliveries caused by late ACKs",
      value: f.redeliveries,
      unit: "events",
      target: "0",
      note: `last ACK after ${(f.ackMs / 1000).toFixed(1)} s`,
    },
    {
      name: `time until all ${n} messages are visible in check`,
      value: round(f.visibleMs / 1000, 1),
      unit: "s",
      note: `${round(n / (f.visibleMs / 1000), 0)} messages/s`,
    },
  ];
}

if (import.meta.main) console.log(formatResults(await run()));
