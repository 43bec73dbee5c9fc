import { deepEqual, equal, throws } from "node:assert/strict";
import { normaliseOutbound } from "./content.ts";
import type { OutboundContent } from "../mcp/family/mod.ts";
import { type EditOperation, planEdit } from "./edit_plan.ts";
import type { NormalisedContent } from "./types.ts";

const A = "main:oc_1:om_1";
const B = "main:oc_1:om_2";
const C = "main:oc_1:om_3";

async function edit(content: unknown): Promise<NormalisedContent> {
  return await normaliseOutbound(
    typeof content === "string" ? { text: content } : { content: content as OutboundContent },
  );
}

const post = (text: string) =>
  JSON.stringify({ zh_cn: { title: "", content: [[{ tag: "md", text }]] } });

Deno.test("planEdit() edits every member when the new content has as many chunks", async () => {
  const plan = planEdit(
    { record: { message_type: "post", content: { type: "markdown" } }, group: [A, B] },
    await edit({ type: "markdown", markdown: "para one\n\npara two" }),
    { limit: 10 },
  );
  deepEqual(
    plan.operations,
    [
      {
        op: "update",
        method: "PUT",
        messageId: A,
        chunkIndex: 1,
        body: { msg_type: "post", content: post("para one") },
      },
      {
        op: "update",
        method: "PUT",
        messageId: B,
        chunkIndex: 2,
        body: { msg_type: "post", content: post("para two") },
      },
    ] satisfies EditOperation[],
  );
  equal(plan.contentType, "markdown");
  equal(plan.placeholder, false);
});

Deno.test("planEdit() edits the first members and deletes the rest when the content shrinks", async () => {
  const plan = planEdit(
    { record: { message_type: "text" }, group: [A, B, C] },
    await edit("short"),
  );
  deepEqual(
    plan.operations,
    [
      {
        op: "update",
        method: "PUT",
        messageId: A,
        chunkIndex: 1,
        body: { msg_type: "text", content: '{"text":"short"}' },
      },
      { op: "delete", messageId: B, chunkIndex: 2 },
      { op: "delete", messageId: C, chunkIndex: 3 },
    ] satisfies EditOperation[],
  );
});

Deno.test("planEdit() refuses content that needs more messages than the group has", async () => {
  const content = await edit("one\ntwo");
  throws(() => planEdit({ record: { message_type: "text" }, group: [A] }, content, { limit: 3 }), {
    message:
      "Expected the edited content to fit in 1 message but found 2; send a new message instead",
  });
});

Deno.test("planEdit() updates a card with PATCH", async () => {
  const card = { schema: "2.0", body: { elements: [{ tag: "markdown", content: "v2" }] } };
  const plan = planEdit(
    { record: { message_type: "interactive", content: { type: "card" } }, group: [A] },
    await edit({ type: "card", card }),
  );
  deepEqual(
    plan.operations,
    [{
      op: "update",
      method: "PATCH",
      messageId: A,
      chunkIndex: 1,
      body: { msg_type: "interactive", content: JSON.stringify(card) },
    }] satisfies EditOperation[],
  );
  equal(plan.contentType, "card");
});

Deno.test("planEdit() keeps a progress card a progress card", async () => {
  const plan = planEdit(
    {
      record: { placeholder: true, message_type: "interactive", content: { type: "card" } },
      group: [A],
    },
    await edit({
      type: "post",
      post: { zh_cn: { title: "Phase", content: [[{ tag: "text", text: "two" }]] } },
    }),
  );
  equal(plan.contentType, "card");
  equal(plan.placeholder, true);
  equal(plan.content.type, "card");
  equal(plan.content.previewText, "LingTai\n⏳ Phase\ntwo");
  const op = plan.operations[0]!;
  equal(op.op === "update" && op.method, "PATCH");
});

Deno.test("planEdit() treats a record with status placeholder as a progress card", async () => {
  const plan = planEdit(
    { record: { status: "placeholder", message_type: "interactive" }, group: [A] },
    await edit({ type: "markdown", markdown: "**phase**" }),
  );
  equal(plan.content.previewText, "LingTai\n⏳ **phase**");
});

const refusals: {
  name: string;
  record: Record<string, unknown>;
  content: unknown;
  error: string;
}[] = [
  {
    name: "a custom card on a progress card",
    record: { placeholder: true, message_type: "interactive" },
    content: { type: "card", card: { schema: "2.0", body: {} } },
    error: "progress card edits only support text, markdown, or post",
  },
  {
    name: "markdown on a text message (the msg_type would change)",
    record: { message_type: "text", content: { type: "text" } },
    content: { type: "markdown", markdown: "**x**" },
    error:
      "Expected the edit to keep msg_type text but found post (markdown content); Feishu cannot change a message's type, send a new message instead",
  },
  {
    name: "text on a card message",
    record: { message_type: "interactive", content: { type: "card" } },
    content: "plain",
    error:
      "Expected the edit to keep msg_type interactive but found text (text content); Feishu cannot change a message's type, send a new message instead",
  },
  {
    name: "a captioned image message, even though it went out as a post",
    record: { message_type: "post", content: { type: "image" } },
    content: { type: "markdown", markdown: "x" },
    error:
      "Expected a text, markdown, post or card message to edit but found image; media, share and sticker messages cannot be edited",
  },
  {
    name: "a sticker message known only by its msg_type",
    record: { message_type: "sticker" },
    content: "x",
    error:
      "Expected a text, post or interactive message to edit but found sticker; media, share and sticker messages cannot be edited",
  },
];

for (const r of refusals) {
  Deno.test(`planEdit() refuses ${r.name}`, async () => {
    const content = await edit(r.content);
    throws(() => planEdit({ record: r.record, group: [A] }, content), { message: r.error });
  });
}

Deno.test("planEdit() edits a message with no record as its single member", async () => {
  const plan = planEdit({ record: null, group: [A] }, await edit("x"));
  equal(plan.operations.length, 1);
  throws(() => planEdit({ record: null, group: [] }, plan.content), TypeError);
});
