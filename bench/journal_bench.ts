/**
 * Benchmark of the intake journal (`lib/journal/`), against baselines measured
 * in the same run on the same disk:
 * - admit throughput (sequential, each admit awaited to its durable commit)
 *   against a bare `kv.set` loop;
 * - admit latency p50/p99 against `kv.set` latency;
 * - concurrent admit throughput (16 in flight) against the same baseline;
 * - end-to-end drain throughput (admit → handler → delete, 4 chats) against a
 *   bare `kv.set` + `kv.delete` loop (the least durable work per event).
 *
 * Run: `deno run --unstable-kv --allow-read --allow-write bench/journal_bench.ts`.
 * @module
 */

import { join } from "node:path";
import type { BenchResult } from "./_types.ts";
import { createLogger, systemClock } from "../lib/core/mod.ts";
import { openJournal } from "../lib/journal/mod.ts";

const N = 1500;
const CHATS = 4;
const silent = createLogger({ sink: () => {} });

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
}

const round = (x: number, digits = 2) => Number(x.toFixed(digits));

async function timed(fn: (i: number) => Promise<unknown>, n: number) {
  const lat: number[] = [];
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const s = performance.now();
    await fn(i);
    lat.push(performance.now() - s);
  }
  const seconds = (performance.now() - t0) / 1000;
  lat.sort((a, b) => a - b);
  return { perSecond: n / seconds, p50: percentile(lat, 0.5), p99: percentile(lat, 0.99) };
}

async function baselines(dir: string) {
  const kv = await Deno.openKv(join(dir, "baseline.kv"));
  try {
    const payload = new TextEncoder().encode(JSON.stringify(envelope(0)));
    const set = await timed((i) => kv.set(["b", i], payload), N);
    const setDelete = await timed(async (i) => {
      await kv.set(["c", i], payload);
      await kv.delete(["c", i]);
    }, N);
    return { set, setDelete };
  } finally {
    kv.close();
  }
}

function envelope(i: number) {
  return {
    schema: "2.0",
    header: { event_id: `ev_${i}`, event_type: "im.message.receive_v1", create_time: "0" },
    event: {
      message: {
        message_id: `om_${i}`,
        chat_id: `oc_${i % CHATS}`,
        content: JSON.stringify({ text: "hello ".repeat(20) }),
      },
    },
  };
}

const admitOf = (i: number, tag: string) => ({
  account: "main",
  chatKey: `oc_${i % CHATS}`,
  dedupeKeys: [`event:${tag}_${i}`, `message:${tag}_${i}`],
  payload: envelope(i),
});

/** Runs every measurement (about 5–10 s) and returns the figures. */
export async function run(): Promise<BenchResult[]> {
  const dir = await Deno.makeTempDir({ prefix: "journal_bench_" });
  try {
    const base = await baselines(dir);
    const journal = await openJournal({
      path: join(dir, "queue.kv"),
      clock: systemClock,
      log: silent,
    });
    let e2e: number;
    let sequential: Awaited<ReturnType<typeof timed>>;
    let concurrent: number;
    try {
      sequential = await timed((i) => journal.admit(admitOf(i, "seq")), N);
      const t1 = performance.now();
      for (let i = 0; i < N; i += 16) {
        await Promise.all(
          Array.from(
            { length: Math.min(16, N - i) },
            (_, k) => journal.admit(admitOf(i + k, "par")),
          ),
        );
      }
      concurrent = N / ((performance.now() - t1) / 1000);
      // Drain what the admit runs left (2N entries), then measure a fresh end-to-end run.
      journal.start(async () => {});
      await journal.idle();
      const t2 = performance.now();
      for (let i = 0; i < N; i++) await journal.admit(admitOf(i, "e2e"));
      await journal.idle();
      e2e = N / ((performance.now() - t2) / 1000);
    } finally {
      await journal.close();
    }
    return [
      {
        name: "journal admit throughput (sequential, durable)",
        value: round(sequential.perSecond, 0),
        unit: "admits/s",
        baseline: round(base.set.perSecond, 0),
        ratio: round(sequential.perSecond / base.set.perSecond),
        note: "baseline: bare kv.set loop",
      },
      {
        name: "journal admit latency p50",
        value: round(sequential.p50, 3),
        unit: "ms",
        baseline: round(base.set.p50, 3),
        ratio: round(sequential.p50 / base.set.p50),
        note: "baseline: kv.set p50",
      },
      {
        name: "journal admit latency p99",
        value: round(sequential.p99, 3),
        unit: "ms",
        baseline: round(base.set.p99, 3),
        ratio: round(sequential.p99 / base.set.p99),
        note: "baseline: kv.set p99",
      },
      {
        name: "journal admit throughput (16 in flight)",
        value: round(concurrent, 0),
        unit: "admits/s",
        baseline: round(base.set.perSecond, 0),
        ratio: round(concurrent / base.set.perSecond),
        note: "baseline: bare kv.set loop",
      },
      {
        name: "journal end-to-end drain throughput (admit → handler → delete, 4 chats)",
        value: round(e2e, 0),
        unit: "events/s",
        baseline: round(base.setDelete.perSecond, 0),
        ratio: round(e2e / base.setDelete.perSecond),
        note: "baseline: bare kv.set + kv.delete loop",
      },
    ];
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) {
  const out = (await run()).map((r) =>
    `${r.name}: ${r.value} ${r.unit}` +
    (r.baseline === undefined ? "" : ` (baseline ${r.baseline}, ratio ${r.ratio})`)
  );
  Deno.stdout.writeSync(new TextEncoder().encode(out.join("\n") + "\n"));
}
