// deno-lint-ignore-file no-console -- a benchmark reports on stdout
/**
 * `deno task bench`: runs every benchmark module and prints each figure with
 * its same-run baseline and ratio. Machines here are noisy: read ratios, not
 * absolute times; nothing here is a pass/fail gate.
 */

import { type BenchResult, formatResults } from "./_types.ts";

const MODULES = [
  "./foundation_bench.ts",
  "./initialize_bench.ts",
  "./emulator_bench.ts",
  "./journal_bench.ts",
  "./inbound_bench.ts",
  "./store_scale_bench.ts",
  "./flood_bench.ts",
  "./outbound_bench.ts",
  "./cards_bench.ts",
  "./taskcard_bench.ts",
  "./taskcard_writes_bench.ts",
];

const all: BenchResult[] = [];
for (const m of MODULES) {
  const mod = await import(m) as { run(): Promise<BenchResult[]> };
  const t0 = performance.now();
  const results = await mod.run();
  all.push(...results);
  console.log(
    `## ${m} (${((performance.now() - t0) / 1000).toFixed(1)} s)\n${formatResults(results)}\n`,
  );
}
