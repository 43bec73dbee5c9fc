// deno-lint-ignore-file no-console -- a benchmark reports on stdout
/**
 * How soon a client that just spawned the server gets its `initialize`
 * answered (Codex gives a server one second before its first turn), on a
 * machine whose every core is busy: one busy loop per core runs beside it.
 * Spawn → the first line on stdout, 20 runs each, interleaved, for
 * - our server as `deno task start` runs it (the launcher, then the confined
 *   re-exec), and the confined server spawned directly;
 * - a bare MCP SDK server (one tool), the baseline.
 * Printed as p50/p90 and their ratios to the bare server's.
 */

import { REPO, startArgs } from "../tests/_server.ts";
import { bareServerArgs, confinedServerArgs } from "./_servers.ts";
import { type BenchResult, median, percentile } from "./_types.ts";

const RUNS = Number(Deno.env.get("FEISHU_BENCH_INIT_RUNS") ?? 20);

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "codex-like", version: "1.0.0" },
  },
}) + "\n";

/** Milliseconds from spawn to the first complete line on stdout. */
async function firstAnswer(args: string[]): Promise<number> {
  const t0 = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd: REPO,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(INITIALIZE));
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`no answer to initialize from ${args.join(" ")}`);
    text += value;
  }
  const ms = performance.now() - t0;
  if (!text.includes('"result"')) throw new Error(`initialize failed: ${text.slice(0, 200)}`);
  await writer.close().catch(() => {});
  await reader.cancel().catch(() => {});
  await child.status;
  return ms;
}

/** One busy loop per core, in child processes, until stopped. */
function loadEveryCore(): () => Promise<void> {
  const burners = Array.from(
    { length: navigator.hardwareConcurrency },
    () =>
      new Deno.Command(Deno.execPath(), {
        args: ["eval", "for (;;) {}"],
        stdout: "null",
        stderr: "null",
      }).spawn(),
  );
  return async () => {
    for (const b of burners) b.kill("SIGKILL");
    await Promise.all(burners.map((b) => b.status));
  };
}

/** Runs the benchmark. */
export async function run(): Promise<BenchResult[]> {
  const workdir = await Deno.makeTempDir({ prefix: "feishu-bench-init-" });
  const forms: Record<string, string[]> = {
    bare: bareServerArgs(),
    start: startArgs(["--workdir", workdir]),
    direct: confinedServerArgs(workdir),
  };
  const times: Record<string, number[]> = { bare: [], start: [], direct: [] };
  for (const args of Object.values(forms)) await firstAnswer(args); // warm the module cache
  const stop = loadEveryCore();
  try {
    for (let i = 0; i < RUNS; i++) {
      for (const [form, args] of Object.entries(forms)) times[form]!.push(await firstAnswer(args));
    }
  } finally {
    await stop();
    await Deno.remove(workdir, { recursive: true });
  }
  const p90 = (form: string) => percentile(times[form]!, 90);
  const p50 = (form: string) => median(times[form]!);
  const row = (form: string, name: string): BenchResult[] => [{
    name: `first initialize answer under load, p90 (${name})`,
    value: p90(form),
    unit: "ms",
    baseline: p90("bare"),
    ratio: p90(form) / p90("bare"),
    target: form === "start" ? "well inside 1 s" : undefined,
    note: `p50 ${p50(form).toFixed(0)} ms vs bare ${p50("bare").toFixed(0)} ms; ${RUNS} runs, ` +
      `${navigator.hardwareConcurrency} busy loops`,
  }];
  return [...row("start", "deno task start"), ...row("direct", "confined server spawned directly")];
}

if (import.meta.main) {
  const { formatResults } = await import("./_types.ts");
  console.log(formatResults(await run()));
}
