import assert from "node:assert/strict";
import { BridgeError } from "../core/mod.ts";
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
