// deno-lint-ignore-file no-console -- a benchmark reports on stdout
/**
 * Startup and per-call cost of the server against a bare MCP SDK server
 * (one tool), both measured in this run with the real SDK client over stdio.
 * - cold start: spawn → first `tools/list` response (our server through the
 *   `start` task's launcher, which re-executes itself confined);
 * - validation cost: a `tools/call` that our validator rejects vs a bare
 *   `echo` call.
 */

import { type Client, defaultEra, eraClient, StdioClientTransport } from "../tests/_mcp_client.ts";
import { REPO, startArgs } from "../tests/_server.ts";
import { bareServerArgs, confinedServerArgs } from "./_servers.ts";
import { type BenchResult, formatResults, median } from "./_types.ts";

async function coldStart(args: string[]): Promise<{ ms: number; client: Client }> {
  const t0 = performance.now();
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args,
    cwd: REPO,
    stderr: "ignore",
  });
  const client = eraClient("bench", defaultEra());
  await client.connect(transport);
  await client.listTools();
  return { ms: performance.now() - t0, client };
}

async function perCall(call: () => Promise<unknown>, n: number): Promise<number> {
  for (let i = 0; i < 20; i++) await call(); // warm up
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await call();
  return ((performance.now() - t0) / n) * 1000; // µs
}

/** Runs the foundation benchmarks. */
export async function run(): Promise<BenchResult[]> {
  const bareArgs = bareServerArgs();
  const ours: number[] = [];
  const ourDirect: number[] = [];
  const bare: number[] = [];
  const workdir = await Deno.makeTempDir({ prefix: "feishu-bench-" });
  const directArgs = confinedServerArgs(workdir);
  for (let i = 0; i < 7; i++) {
    const b = await coldStart(bareArgs);
    bare.push(b.ms);
    await b.client.close();
    const o = await coldStart(startArgs(["--workdir", workdir]));
    ours.push(o.ms);
    await o.client.close();
    const d = await coldStart(directArgs);
    ourDirect.push(d.ms);
    await d.client.close();
  }
  const bareMed = median(bare);
  const b = await coldStart(bareArgs);
  const bareCall = await perCall(
    () => b.client.callTool({ name: "echo", arguments: { text: "x" } }),
    300,
  );
  await b.client.close();
  const o = await coldStart(directArgs);
  const ourCall = await perCall(
    () =>
      o.client.callTool({
        name: "feishu",
        arguments: { action: "send", input: { text: 1 }, reasoning: "r" },
      }),
    300,
  );
  await o.client.close();
  await Deno.remove(workdir, { recursive: true });
  return [
    {
      name: "cold start to first tools/list (deno task start, launcher + confined re-exec)",
      value: median(ours),
      unit: "ms",
      baseline: bareMed,
      ratio: median(ours) / bareMed,
      note: "median of 7; the launcher adds one deno process start",
    },
    {
      name: "cold start to first tools/list (confined server spawned directly)",
      value: median(ourDirect),
      unit: "ms",
      baseline: bareMed,
      ratio: median(ourDirect) / bareMed,
      target: "≤ 1.5× bare server",
      note: "median of 7",
    },
    {
      name: "tools/call round trip with strict validation (rejected input)",
      value: ourCall,
      unit: "µs",
      baseline: bareCall,
      ratio: ourCall / bareCall,
      target: "≤ 1.5× bare server",
      note: "mean of 300 after warm-up",
    },
  ];
}

if (import.meta.main) console.log(formatResults(await run()));
