import { deepEqual, throws } from "node:assert/strict";
import { type GroupRecord, resolveChunkGroup } from "./chunk_group.ts";

const A = "main:oc_1:om_1";
const B = "main:oc_1:om_2";

const cases: {
  name: string;
  requested: string;
  record?: GroupRecord | null;
  want: { messageId: string; group: string[] };
}[] = [
  {
    name: "is the requested id alone when no record was found",
    requested: B,
    record: null,
    want: { messageId: B, group: [B] },
  },
  {
    name: "takes message_ids then chunks, in first-seen order without duplicates",
    requested: B,
    record: {
      id: A,
      message_ids: [A],
      chunks: [{ index: 1, message_id: A }, { index: 2, message_id: B }],
    },
    want: { messageId: A, group: [A, B] },
  },
  {
    name: "builds ids from feishu_message_ids when there are no compound ids",
    requested: A,
    record: { id: A, feishu_message_ids: ["om_1", "om_2"] },
    want: { messageId: A, group: [A, B] },
  },
  {
    name: "falls back to the record id",
    requested: A,
    record: { id: A },
    want: { messageId: A, group: [A] },
  },
  {
    name: "drops ids of another account or chat, unparsable ids and empty message parts",
    requested: A,
    record: {
      id: A,
      message_ids: [A, "other:oc_1:om_3", "main:oc_2:om_4", "junk", "main:oc_1:", 7, B],
    },
    want: { messageId: A, group: [A, B] },
  },
  {
    name: "is the requested id alone when the record's group does not contain it",
    requested: "main:oc_1:om_9",
    record: { id: A, message_ids: [A, B] },
    want: { messageId: A, group: ["main:oc_1:om_9"] },
  },
  {
    name: "keeps a message part that contains colons",
    requested: "main:events:a:b",
    record: { id: "main:events:a:b" },
    want: { messageId: "main:events:a:b", group: ["main:events:a:b"] },
  },
];

for (const c of cases) {
  Deno.test(`resolveChunkGroup() ${c.name}`, () => {
    deepEqual(resolveChunkGroup(c.requested, c.record), c.want);
  });
}

Deno.test("resolveChunkGroup() rejects an id that is not a compound id", () => {
  throws(() => resolveChunkGroup("om_1"), { message: "Invalid Feishu message ID format: 'om_1'" });
});
