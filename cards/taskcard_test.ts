import { deepEqual, equal } from "node:assert/strict";
import { TASK_CARD_TITLE, taskCardWrapper } from "./taskcard.ts";

Deno.test("taskCardWrapper() builds the exact schema 2.0 Task Card", () => {
  deepEqual(taskCardWrapper("frame", "scribe Task Card"), {
    schema: "2.0",
    config: { update_multi: true },
    header: { title: { tag: "plain_text", content: "scribe Task Card" }, template: "blue" },
    body: { elements: [{ tag: "markdown", content: "frame" }] },
  });
  equal(TASK_CARD_TITLE, "Task Card");
  const untitled = taskCardWrapper("frame").header as { title: { content: string } };
  equal(untitled.title.content, "Task Card");
});

Deno.test("taskCardWrapper() shows the frame as plain text: markdown and tags are escaped", () => {
  const frame =
    "📋 ACTIVITIES\n──────────\n• **bold** <at id=all></at> [x](https://e.example) `code`";
  const body = taskCardWrapper(frame).body as { elements: { content: string }[] };
  equal(
    body.elements[0]!.content,
    "📋 ACTIVITIES\n──────────\n• &#42;&#42;bold&#42;&#42; &lt;at id=all&gt;&lt;/at&gt; " +
      "&#91;x&#93;(https://e.example) &#96;code&#96;",
  );
});
