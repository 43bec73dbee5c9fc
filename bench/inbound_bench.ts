// deno-lint-ignore-file no-console -- a benchmark reports on stdout
/**
 * The inbound side against its limit, all measured in one run on the
 * loopback emulator (our server over stdio exactly as an agent spawns it):
 * - sustained ingest: a burst of events, per second to durable + ACK and per
 *   second to visible in `read`, against a bare node-sdk `WSClient` whose
 *   handler only ACKs (its own process, like ours);
 * - ACK latency p50/p99 at 200 events/s against the same bare client;
 * - resident memory of the server holding 100k stored messages, against the
 *   same server with an empty store;
 * - `search` latency over 100k records, against the bare scan it wraps (the
 *   same SQLite rows tested with the same regex, in this process).
 */

import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { startEmulator } from "../lib/emulator/mod.ts";
import { bridgeConfig, serverPid, startBridge } from "../tests/_inbound.ts";
import { type BenchResult, formatResults, median, percentile } from "./_types.ts";
import { benchChats, burst, fillStore, paced, rssMiB, startBareClient } from "./_inbound_load.ts";

const BURST = 2000;
const PACED = 1000;
const RATE = 200;
const STORED = 100_000;
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

/** The scan the search worker does, minus worker, MCP and record parsing. */
function bareScan(workdir: string, pattern: string): number {
  const db = new DatabaseSync(join(workdir, "feishu", "store.db"), { readOnly: true });
  try {
    const re = new RegExp(pattern, "i");
    const t0 = performance.now();
    let hits = 0;
    const rows = db.prepare(
      `SELECT search_text FROM records WHERE account = ? AND direction = 'incoming' AND hidden = 0
       ORDER BY create_time DESC, seq DESC`,
    ).iterate("main");
    for (const row of rows) if (re.test(String(row.search_text))) hits++;
    if (hits === -1) throw new Error("unreachable");
    return performance.now() - t0;
  } finally {
    db.close();
  }
}

async function storeFigures(workdir: string | null, emuUrl: string) {
  const bridge = await startBridge({
    config: bridgeConfig(emuUrl),
    ...(workdir ? { workdir } : {}),
  });
  try {
    await bridge.call("check");
    const times: number[] = [];
    let result: Record<string, unknown> = {};
    await bridge.call("search", { query: "needle" }); // the worker starts
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      result = await bridge.call("search", { query: "needle" });
      times.push(performance.now() - t0);
    }
    const rss = await rssMiB(await serverPid(bridge.server.workdir));
    return { rss, search: median(times), result };
  } finally {
    await bridge.close();
  }
}

async function storeBench(): Promise<BenchResult[]> {
  const workdir = await Deno.makeTempDir({ prefix: "feishu-bench-store-" });
  try {
    const t0 = performance.now();
    fillStore(workdir, STORED);
    const fillSeconds = (performance.now() - t0) / 1000;
    const scans = Array.from({ length: 5 }, () => bareScan(workdir, "needle"));
    await using emu = await startEmulator();
    const full = await storeFigures(workdir, emu.url);
    const empty = await storeFigures(null, emu.url);
    const truncated = full.result.truncated === true;
    return [
      {
        name: `server RSS with ${STORED / 1000}k stored messages (after check and search)`,
        value: round(full.rss, 1),
        unit: "MiB",
        baseline: round(empty.rss, 1),
        ratio: round(full.rss / empty.rss),
        note: `baseline: the same server with an empty store; filling took ${
          fillSeconds.toFixed(1)
        } s`,
      },
      {
        name: `search latency over ${STORED / 1000}k records (tools/call round trip, p50)`,
        value: round(full.search, 1),
        unit: "ms",
        baseline: round(median(scans), 1),
        ratio: round(full.search / median(scans)),
        note: `baseline: bare SQLite scan + regex in process; ${full.result.total} matches${
          truncated ? ", TRUNCATED by the time budget" : ""
        }`,
      },
    ];
  } finally {
    await Deno.remove(workdir, { recursive: true });
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
    ...await storeBench(),
  ];
}

if (import.meta.main) console.log(formatResults(await run()));
