// deno-lint-ignore-file no-console -- a benchmark reports on stdout
/**
 * Benchmark of the Task Card events log tailer (`lib/taskcard/events_log.ts`): what
 * following the agent's `logs/events.jsonl` costs per appended row when the
 * events log is 100 MB, against the same work on a 10 KB events log in the same run.
 * A tailer that re-read or re-projected the file would cost ~10 000× more on
 * the big one; ours reads only the appended bytes, so the ratio should stay
 * near 1. Also the start (rehydrate) time, a bounded tail read: on the 100 MB
 * events log against a 1 MiB events log of the same rows (same tail, so ≈ 1×), with
 * the 10 KB events log's time alongside.
 *
 * Both files hold realistic rows (tool calls with private arguments, results
 * with large bodies, replies). The same K rows are appended to both in batches
 * of 20, one `pollOnce` after each batch; only the polls are timed, the two
 * files alternate which goes first so a shared machine's noise falls on both.
 * Sanity: both tailers must end with the same snapshot (the module throws
 * otherwise).
 *
 * Run: `deno run --allow-read --allow-write bench/taskcard_bench.ts`.
 * @module
 */

import { isDeepStrictEqual } from "node:util";
import { join } from "node:path";
import { type BenchResult, formatResults, median } from "./_types.ts";
import { createEventsLogTailer, type EventsLogTailer } from "../lib/taskcard/events_log.ts";

const BIG_BYTES = 100 * 1024 * 1024;
const SMALL_BYTES = 10 * 1024;
const K = 2000;
const BATCH = 20;
const REHYDRATE_RUNS = 21;
const WARM_BATCHES = 10;

const round = (x: number, digits = 4) => Number(x.toFixed(digits));

/** The rows of one provider round: a call, its result (body of `bodyBytes`), a reply. */
function roundRows(n: number, bodyBytes: number): string {
  const envelope = {
    address: "agent",
    agent_name: "agent",
    kernel_version: "1.0.0",
    ts: 1_767_225_600 + n,
    api_call_id: `round_${n}`,
  };
  const callId = `call_${n}`;
  const rows = [
    {
      ...envelope,
      type: "tool_call",
      tool_name: "bash",
      tool_call_id: callId,
      tool_trace_id: `trace_${n}`,
      tool_args: {
        command: `grep -rn "TODO" src/ --include=*.ts | head -n ${n % 50}`,
        _reasoning: "Looking for the unfinished parts before editing the module.",
        action: "run",
      },
    },
    {
      ...envelope,
      type: "tool_result",
      tool_call_id: callId,
      status: "success",
      elapsed_ms: 100 + (n % 900),
      result: { stdout: "src/a.ts:12: // TODO handle the error\n".repeat(bodyBytes / 40) },
    },
    { ...envelope, type: "diary", text: `Round ${n}: found the places to change.` },
  ];
  return rows.map((r) => JSON.stringify(r) + "\n").join("");
}

/** Writes an events log of at least `bytes`, repeating a ~1 MiB block of rounds. */
async function buildEventsLog(path: string, bytes: number, bodyBytes: number): Promise<void> {
  let block = "";
  for (let n = 0; block.length < Math.min(bytes, 1 << 20); n++) block += roundRows(n, bodyBytes);
  const data = new TextEncoder().encode(block);
  const file = await Deno.open(path, { write: true, create: true, truncate: true });
  try {
    for (let written = 0; written < bytes; written += data.length) {
      let off = 0;
      while (off < data.length) off += await file.write(data.subarray(off));
    }
  } finally {
    file.close();
  }
}

/** Batches of `count` appended rows: a realistic mix, round ids from `first` on. */
function appendBatches(count: number, first: number): Uint8Array[] {
  const rows = Array.from(
    { length: Math.ceil(count / 3) },
    (_, i) => roundRows(first + i, 2000).split("\n").filter((l) => l !== ""),
  ).flat().slice(0, count);
  const enc = new TextEncoder();
  const batches: Uint8Array[] = [];
  for (let i = 0; i < rows.length; i += BATCH) {
    batches.push(enc.encode(rows.slice(i, i + BATCH).join("\n") + "\n"));
  }
  return batches;
}

/** Median start time per events log, the events logs taking turns (after one untimed start each). */
async function rehydrateMs(paths: string[]): Promise<number[]> {
  const times = paths.map(() => [] as number[]);
  for (let i = -1; i < REHYDRATE_RUNS; i++) {
    for (const [k, path] of paths.entries()) {
      const tailer = createEventsLogTailer({ path });
      const t0 = performance.now();
      await tailer.start();
      if (i >= 0) times[k]!.push(performance.now() - t0);
    }
  }
  return times.map(median);
}

interface Subject {
  path: string;
  tailer: EventsLogTailer;
  file: Deno.FsFile;
  pollMs: number;
}

async function subject(path: string): Promise<Subject> {
  const tailer = createEventsLogTailer({ path });
  await tailer.start();
  const file = await Deno.open(path, { append: true });
  return { path, tailer, file, pollMs: 0 };
}

async function appendAndPoll(s: Subject, batch: Uint8Array): Promise<void> {
  let off = 0;
  while (off < batch.length) off += await s.file.write(batch.subarray(off));
  const t0 = performance.now();
  const changed = await s.tailer.pollOnce();
  s.pollMs += performance.now() - t0;
  if (!changed) throw new Error(`a batch appended to ${s.path} did not change the card`);
}

/** Builds both events logs, measures (about 5–15 s), removes them and returns the figures. */
export async function run(): Promise<BenchResult[]> {
  const dir = await Deno.makeTempDir({ prefix: "taskcard_bench_" });
  try {
    const bigPath = join(dir, "big.jsonl");
    const smallPath = join(dir, "small.jsonl");
    const sameRowsPath = join(dir, "one_block.jsonl");
    const tBuild = performance.now();
    await buildEventsLog(bigPath, BIG_BYTES, 16_000);
    await buildEventsLog(sameRowsPath, 1 << 20, 16_000);
    await buildEventsLog(smallPath, SMALL_BYTES, 400);
    const buildS = (performance.now() - tBuild) / 1000;
    const bigSize = (await Deno.stat(bigPath)).size;
    const smallSize = (await Deno.stat(smallPath)).size;

    const [rehydrateBig, rehydrateSameRows, rehydrateSmall] = await rehydrateMs([
      bigPath,
      sameRowsPath,
      smallPath,
    ]) as [number, number, number];
    const sameRowsSize = (await Deno.stat(sameRowsPath)).size;

    const big = await subject(bigPath);
    const small = await subject(smallPath);
    try {
      for (const batch of appendBatches(WARM_BATCHES * BATCH, 1_000_000)) {
        await appendAndPoll(big, batch);
        await appendAndPoll(small, batch);
      }
      big.pollMs = small.pollMs = 0;
      const batches = appendBatches(K, 2_000_000);
      for (const [i, batch] of batches.entries()) {
        const order = i % 2 === 0 ? [big, small] : [small, big];
        for (const s of order) await appendAndPoll(s, batch);
      }
      if (!isDeepStrictEqual(big.tailer.snapshot(), small.tailer.snapshot())) {
        throw new Error("the two tailers disagree after the same appends");
      }
    } finally {
      big.file.close();
      small.file.close();
    }
    const perRowBig = (big.pollMs / K) * 1000;
    const perRowSmall = (small.pollMs / K) * 1000;
    const mb = (b: number) => `${(b / 1e6).toFixed(1)} MB`;
    return [
      {
        name: "taskcard tailer cost per appended row (100 MB events log)",
        value: round(perRowBig, 2),
        unit: "µs/row",
        baseline: round(perRowSmall, 2),
        ratio: round(perRowBig / perRowSmall, 2),
        target: "≈ 1× (must not grow with the file's size)",
        note:
          `${K} rows in batches of ${BATCH}, one pollOnce per batch, after an untimed warm-up; files ${
            mb(bigSize)
          } ` +
          `vs ${(smallSize / 1024).toFixed(1)} KB (built in ${buildS.toFixed(1)} s); ` +
          `baseline: the same appends on the small events log`,
      },
      {
        name: "taskcard tailer rehydrate (start) on the 100 MB events log",
        value: round(rehydrateBig, 2),
        unit: "ms",
        baseline: round(rehydrateSameRows, 2),
        ratio: round(rehydrateBig / rehydrateSameRows, 2),
        target: "≈ 1× (a tail read, whatever the file's size)",
        note: `median of ${REHYDRATE_RUNS}; the tail is widened until it holds 10 rounds ` +
          `(~16 KB results here); baseline: a ${mb(sameRowsSize)} events log of the same rows; ` +
          `the 10 KB events log (small results) starts in ${rehydrateSmall.toFixed(2)} ms`,
      },
    ];
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) console.log(formatResults(await run()));
