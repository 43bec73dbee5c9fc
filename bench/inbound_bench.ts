// deno-lint-ignore-file no-console -- a benchmark reports on stdout
/**
 * The inbound side against its limit, all measured in one run on the
 * loopback emulator (our server over stdio exactly as an agent spawns it):
 * - sustained ingest: a burst of events, per second to durable + ACK and per
 *   second to visible in `read`, against a bare node-sdk `WSClient` whose
 *   handler only ACKs (its own process, like ours);
 * - ACK latency p50/p99 at 200 events/s against the same bare client.
 *
 * How the store scales with history (memory, `check`, `search`, ...) is
 * `store_scale_bench.ts`.
 */

import { startEmulator } from "../lib/emulator/mod.ts";
import { bridgeConfig, startBridge } from "../tests/_inbound.ts";
import { type BenchResult, formatResults, percentile } from "./_types.ts";
import { benchChats, burst, paced, startBareClient } from "./_inbound_load.ts";

const BURST = 2000;
const PACED = 1000;
const RATE = 200;
const round = (x: number, digits = 2) => Number(x.toFixed(digits));

interface IngestFigures {
  ackPerSecond: number;
  visiblePerSecond?: number;
  p50: number;
  p99: number;
}

async function oursIngest(): Promise<IngestFigures> {
  await using emu = await startEmulator();
  const chats = benchChats(emu, 8);
  const bridge = await startBridge({ config: bridgeConfig(emu.url) });
  try {
    await emu.ws.whenReady();
    await paced(emu, chats, { n: 100, perSecond: RATE }); // warm up
    await bridge.updates.atLeast(100, { guardMs: 120_000 });
    const t0 = performance.now();
    const ackMs = await burst(emu, chats, BURST);
    await bridge.updates.atLeast(100 + BURST, { guardMs: 300_000 });
    const visibleMs = performance.now() - t0;
    const latencies = await paced(emu, chats, { n: PACED, perSecond: RATE });
    await bridge.updates.atLeast(100 + BURST + PACED, { guardMs: 300_000 });
    const check = await bridge.call("check");
    if (check.total !== 100 + BURST + PACED) {
      throw new Error(`Expected ${100 + BURST + PACED} records but found ${check.total}`);
    }
    return {
      ackPerSecond: BURST / (ackMs / 1000),
      visiblePerSecond: BURST / (visibleMs / 1000),
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
    };
  } finally {
    await bridge.close();
  }
}

async function bareIngest(): Promise<IngestFigures> {
  await using emu = await startEmulator();
  const chats = benchChats(emu, 8);
  const bare = startBareClient(emu);
  try {
    await emu.ws.whenReady();
    await paced(emu, chats, { n: 100, perSecond: RATE });
    const ackMs = await burst(emu, chats, BURST);
    const latencies = await paced(emu, chats, { n: PACED, perSecond: RATE });
    return {
      ackPerSecond: BURST / (ackMs / 1000),
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
    };
  } finally {
    await bare.stop();
  }
}

/** Runs the inbound benchmarks (about a minute). */
export async function run(): Promise<BenchResult[]> {
  const bare = await bareIngest();
  const ours = await oursIngest();
  return [
    {
      name: `sustained ingest to durable + ACK (burst of ${BURST})`,
      value: round(ours.ackPerSecond, 0),
      unit: "events/s",
      baseline: round(bare.ackPerSecond, 0),
      ratio: round(ours.ackPerSecond / bare.ackPerSecond),
      note: "baseline: bare node-sdk WSClient that only ACKs",
    },
    {
      name: `sustained ingest to visible in read (burst of ${BURST})`,
      value: round(ours.visiblePerSecond!, 0),
      unit: "events/s",
      baseline: round(bare.ackPerSecond, 0),
      ratio: round(ours.visiblePerSecond! / bare.ackPerSecond),
      note: "record written, OK/Typing added, agent notified; baseline: bare ACK rate",
    },
    {
      name: `ACK latency p50 at ${RATE} events/s`,
      value: round(ours.p50),
      unit: "ms",
      baseline: round(bare.p50),
      ratio: round(ours.p50 / bare.p50),
      note: `${PACED} events; baseline: bare node-sdk WSClient`,
    },
    {
      name: `ACK latency p99 at ${RATE} events/s`,
      value: round(ours.p99),
      unit: "ms",
      baseline: round(bare.p99),
      ratio: round(ours.p99 / bare.p99),
      note: `${PACED} events; baseline: bare node-sdk WSClient`,
    },
  ];
}

if (import.meta.main) console.log(formatResults(await run()));
