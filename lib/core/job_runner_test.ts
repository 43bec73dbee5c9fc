import assert from "node:assert/strict";
import { systemClock } from "./clock.ts";
import { JobRunner } from "./job_runner.ts";

// Reads the audio bytes as a command: "hang" never answers, "ok" answers.
const FAKE = new URL("../../tests/fixtures/fake_decode_worker.ts", import.meta.url);
type Reply = { id: number; ok: boolean; samples?: number };

function runner(maxWorkers: number) {
  return new JobRunner<{ audio: ArrayBuffer }, Reply>({
    kind: "decode",
    source: FAKE,
    clock: systemClock,
    maxWorkers,
    errors: { closed: () => new Error("closed"), crashed: (m) => new Error(m) },
  });
}

const job = (command: string) => ({
  request: { audio: new TextEncoder().encode(command).buffer },
  answer: (r: Reply) => ({ ok: true as const, value: r.samples }),
});

Deno.test("JobRunner runs jobs in workers of their own up to its pool, then queues; close rejects the rest", async () => {
  const jobs = runner(2);
  const hung = jobs.run(job("hang"));
  const ok = jobs.run(job("ok"));
  const queued = jobs.run(job("hang"));
  assert.deepEqual(jobs.load(), { running: 2, queued: 1 });
  assert.equal(await ok, 0);
  // The freed worker takes the queued job.
  assert.deepEqual(jobs.load(), { running: 2, queued: 0 });
  jobs.close();
  await assert.rejects(hung, { message: "closed" });
  await assert.rejects(queued, { message: "closed" });
  await assert.rejects(jobs.run(job("ok")), { message: "closed" });
});
