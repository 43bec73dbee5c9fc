/**
 * `doctor`: a read-only health report of a workdir, for operators, that
 * works while the server runs (it never takes the workdir lock) and after it
 * stopped. It validates the config as `serve` does, reads the connection
 * health and the journal figures (queues, dead letters, dedupe keys) the
 * server persists, with their age, the pending Typing reactions, and this
 * month's API calls against the quota. Text by default, `--json` for machines. Exit 0 when healthy, 1 when
 * something needs attention; usage errors exit 2 before this runs. It never
 * writes a file and never prints a secret or a token.
 * @module
 */

import type { LaunchOptions } from "../config/mod.ts";
import { gather } from "./_gather.ts";
import { buildReport, redactOutput, renderText } from "./report.ts";

/** Where doctor writes and what time it is (tests pass their own). */
interface DoctorIo {
  write(text: string): void;
  now(): number;
}

const stdoutIo: DoctorIo = {
  write: (text) => {
    const bytes = new TextEncoder().encode(text);
    let n = 0;
    while (n < bytes.length) n += Deno.stdout.writeSync(bytes.subarray(n));
  },
  now: () => Date.now(),
};

/**
 * Runs the report for a launch and returns the exit code (0 healthy,
 * 1 attention).
 */
export async function runDoctor(
  launch: LaunchOptions,
  io: DoctorIo = stdoutIo,
): Promise<number> {
  const now = io.now();
  const gathered = await gather(launch, now);
  const report = buildReport(gathered, now);
  // Belt and braces: nothing gathered should hold a secret or a token, and the
  // redaction makes sure (the app secrets, `t-`/`u-` tokens, bearer headers).
  const text = launch.json ? JSON.stringify(report, null, 2) + "\n" : renderText(report);
  io.write(redactOutput(text, gathered.secrets));
  return report.healthy ? 0 : 1;
}
