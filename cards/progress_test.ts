import { deepEqual } from "node:assert/strict";
import { progressCard } from "./progress.ts";

Deno.test("progressCard() builds the exact schema 2.0 structure", () => {
  deepEqual(progressCard("phase two"), {
    schema: "2.0",
    config: { update_multi: true },
    header: { title: { tag: "plain_text", content: "LingTai" }, template: "blue" },
    body: { elements: [{ tag: "markdown", content: "⏳ phase two" }] },
  });
});

Deno.test("progressCard() shows … for a blank phase and trims the phase", () => {
  for (const [phase, shown] of [["", "⏳ …"], [" \n ", "⏳ …"], ["\n**step**\n", "⏳ **step**"]]) {
    const body = progressCard(phase!).body as { elements: { content: string }[] };
    deepEqual(body.elements[0]!.content, shown);
  }
});

Deno.test("progressCard() takes another header title when asked", () => {
  const header = progressCard("x", { title: "Agent" }).header as { title: { content: string } };
  deepEqual(header.title.content, "Agent");
});
