import assert from "node:assert/strict";
import { BridgeError, ManualClock } from "../core/mod.ts";
import { MAX_MARKDOWN_NESTING } from "./markdown/mod.ts";
import { normaliseOutbound } from "./content.ts";
import { materialise } from "./materialise.ts";
import { planEdit } from "./edit_plan.ts";
import { Planner } from "./planner.ts";

const markdown = (md: string) => normaliseOutbound({ content: { type: "markdown", markdown: md } });
const doc = "## Part\n\n" + "Some words 中文 😀 and `code`.\n".repeat(400) + "```ts\n" +
  "let x = 1;\n".repeat(300) + "```\n";

Deno.test("Planner gives the same bodies in its worker as inline", async () => {
  using planner = new Planner({ threshold: 100 });
  const content = await markdown(doc);
  assert.equal(planner.offThread(content), true);
  assert.deepEqual(
    await planner.materialise(content, { limit: 1000 }),
    materialise(content, { limit: 1000 }),
  );
});

Deno.test("Planner plans edits in its worker as inline", async () => {
  using planner = new Planner({ threshold: 100 });
  const content = await markdown(doc);
  const group = Array.from({ length: 20 }, (_, i) => `m:c:${i + 1}`);
  const target = { record: { message_type: "post", content: { type: "markdown" } }, group };
  const plan = await planner.planEdit(target, content, { limit: 1000 });
  assert.deepEqual(plan, planEdit(target, content, { limit: 1000 }));
  assert.ok(plan.operations.some((o) => o.op === "delete"));
});

Deno.test("Planner keeps a BridgeError's code across the worker boundary", async () => {
  using planner = new Planner({ threshold: 100 });
  const content = await markdown(doc);
  await assert.rejects(
    planner.planEdit({ record: { message_type: "post" }, group: ["m:c:1"] }, content, {
      limit: 1000,
    }),
    (e: unknown) =>
      e instanceof BridgeError && e.code === "INVALID_ARGUMENT" &&
      /send a new message/.test(e.message),
  );
});

Deno.test("Planner runs small content inline, without starting a worker, and refuses work once closed", async () => {
  const planner = new Planner();
  const content = await normaliseOutbound({ text: "hi" });
  assert.equal(planner.offThread(content), false);
  assert.equal((await planner.materialise(content)).bodies.length, 1);
  planner.close();
  await assert.rejects(planner.materialise(content), /found it closed/);
});

Deno.test("Planner stops a job that runs past its budget with a FORMAT_ERROR naming it, and the next job runs in a fresh worker", async () => {
  const clock = new ManualClock(0);
  using planner = new Planner({ threshold: 100, budgetMs: 2_500, clock });
  const content = await markdown(doc);
  // A warm worker first: the budget of a fresh one counts from when it has loaded.
  await planner.materialise(content, { limit: 1000 });
  const late = planner.materialise(content, { limit: 1000 });
  assert.equal(clock.pendingSleeps(), 1);
  // The timer fires before the worker's answer can be read (that needs a turn of the loop).
  clock.advance(2_500);
  await assert.rejects(
    late,
    (e: unknown) =>
      e instanceof BridgeError && e.code === "FORMAT_ERROR" &&
      /longer than 2\.5 s to plan/.test(e.message),
  );
  assert.deepEqual(planner.load(), { running: 0, queued: 0 });
  assert.deepEqual(
    await planner.materialise(content, { limit: 1000 }),
    materialise(content, { limit: 1000 }),
  );
});

Deno.test("Planner runs concurrent heavy jobs in separate workers and queues only past its pool", async () => {
  using planner = new Planner({ threshold: 100, maxWorkers: 2 });
  const content = await markdown(doc);
  const jobs = [1, 2, 3].map(() => planner.materialise(content, { limit: 1000 }));
  assert.deepEqual(planner.load(), { running: 2, queued: 1 });
  const results = await Promise.all(jobs);
  assert.equal(new Set(results.map((r) => JSON.stringify(r))).size, 1);
  assert.deepEqual(planner.load(), { running: 0, queued: 0 });
});

Deno.test("Planner refuses markdown nested past its budget on the calling thread, before any worker", async () => {
  using planner = new Planner({ threshold: 100 });
  const content = await markdown("- ".repeat(5000) + "x");
  const p = planner.materialise(content);
  assert.deepEqual(planner.load(), { running: 0, queued: 0 });
  await assert.rejects(
    p,
    (e: unknown) =>
      e instanceof BridgeError && e.code === "FORMAT_ERROR" &&
      e.message.includes(`at most ${MAX_MARKDOWN_NESTING} levels`),
  );
});
