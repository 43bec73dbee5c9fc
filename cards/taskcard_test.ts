import { deepEqual, equal } from "node:assert/strict";
import { TASK_CARD_TITLE, taskCardWrapper } from "./taskcard.ts";

Deno.test("taskCardWrapper() builds the exact schema 2.0 Task Card", () => {
  deepEqual(taskCardWrapper("frame"), {
    schema: "2.0",
    config: { update_multi: true },
    header: { title: { tag: "plain_text", content: "LingTai Task Card" }, template: "blue" },
    body: { elements: [{ tag: "markdown", content: "frame" }] },
  });
  equal(TASK_CARD_TITLE, "LingTai Task Card");
});

Deno.test("taskCardWrapper() carries the frame verbatim, markdown and emoji included", () => {
  const frame = "📋 ACTIVITIES\n──────────\n• **bold** <at id=1></at> `code`\n";
  const body = taskCardWrapper(frame).body as { elements: { content: string }[] };
  equal(body.elements[0]!.content, frame);
});
