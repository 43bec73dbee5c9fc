import { deepEqual, equal } from "node:assert/strict";
import { toFailure } from "../core/mod.ts";
import { normaliseOutbound } from "./content.ts";
import {
  applyLifecycle,
  LIFECYCLE_WARNING,
  lifecycleEntry,
  lifecycleResponse,
  type MemberOutcome,
  PROGRESS_EDIT_HINT,
} from "./lifecycle.ts";
import { wrapProgressCard } from "./progress.ts";

const A = "main:oc_1:om_1";
const B = "main:oc_1:om_2";
const AT = Date.UTC(2026, 7, 8, 9, 0, 0);
const ISO = "2026-08-08T09:00:00Z";

const record = {
  id: A,
  feishu_message_ids: ["om_1", "om_2"],
  message_ids: [A, B],
  chunks: [{ index: 1, message_id: A }, { index: 2, message_id: B }],
  message_type: "text",
  content: { type: "text", text: "old" },
  text: "old",
  status: "partial",
};

const rejected = toFailure(new Error("edit rejected"));
const both: MemberOutcome[] = [{ messageId: A, chunkIndex: 1 }, { messageId: B, chunkIndex: 2 }];
const secondFails: MemberOutcome[] = [{ messageId: A, chunkIndex: 1 }, {
  messageId: B,
  chunkIndex: 2,
  error: rejected,
}];

Deno.test("lifecycleEntry() records a completed operation exactly", () => {
  deepEqual(lifecycleEntry({ operation: "edit", outcomes: both, at: AT }), {
    operation: "edit",
    status: "completed",
    attempted_message_ids: [A, B],
    succeeded_message_ids: [A, B],
    failures: [],
    at: ISO,
  });
});

Deno.test("applyLifecycle() replaces content, text and status after a full edit", async () => {
  const content = await normaliseOutbound({ text: "new" });
  const next = applyLifecycle(record, {
    operation: "edit",
    outcomes: both,
    at: AT,
    edit: { content, placeholder: false },
  });
  deepEqual(next, {
    ...record,
    content: { type: "text", text: "new" },
    message_type: "text",
    text: "new",
    status: "sent",
    edited_at: ISO,
    edited_message_ids: [A, B],
    lifecycle: lifecycleEntry({ operation: "edit", outcomes: both, at: AT }),
  });
});

Deno.test("applyLifecycle() keeps a progress card a placeholder after an edit", async () => {
  const content = wrapProgressCard(await normaliseOutbound({ text: "phase two" }), {
    mode: "edit",
  });
  const next = applyLifecycle(
    { ...record, status: "placeholder", placeholder: true },
    { operation: "edit", outcomes: [both[0]!], at: AT, edit: { content, placeholder: true } },
  )!;
  deepEqual([next.status, next.placeholder, next.message_type], [
    "placeholder",
    true,
    "interactive",
  ]);
  equal(next.text, "LingTai\n⏳ phase two");
});

Deno.test("applyLifecycle() marks a full delete", () => {
  const next = applyLifecycle(record, { operation: "delete", outcomes: both, at: AT })!;
  deepEqual([next.status, next.deleted_at, next.deleted_message_ids], ["deleted", ISO, [A, B]]);
});

Deno.test("applyLifecycle() marks a mixed result partial and leaves the content alone", async () => {
  const content = await normaliseOutbound({ text: "new" });
  for (const operation of ["edit", "delete"] as const) {
    const next = applyLifecycle(record, {
      operation,
      outcomes: secondFails,
      at: AT,
      edit: { content, placeholder: false },
    })!;
    equal(next.status, `${operation}_partial`);
    equal(next.text, "old");
    deepEqual(next.lifecycle, {
      operation,
      status: "partial",
      attempted_message_ids: [A, B],
      succeeded_message_ids: [A],
      failures: [{
        message_id: B,
        chunk_index: 2,
        error: "edit rejected",
        error_code: "UNKNOWN",
        retryable: false,
        retry_after_seconds: null,
      }],
      at: ISO,
    });
  }
});

Deno.test("applyLifecycle() writes nothing when every member failed", () => {
  equal(
    applyLifecycle(record, {
      operation: "delete",
      outcomes: [{ messageId: A, chunkIndex: 1, error: rejected }],
      at: AT,
    }),
    null,
  );
});

Deno.test("applyLifecycle() drops deleted trailing members after an edit that shrank the message", async () => {
  const content = await normaliseOutbound({ text: "short" });
  const outcomes = [{ messageId: A, chunkIndex: 1 }, {
    messageId: B,
    chunkIndex: 2,
    removed: true,
  }];
  const next = applyLifecycle(record, {
    operation: "edit",
    outcomes,
    at: AT,
    edit: { content, placeholder: false },
  })!;
  deepEqual(next.message_ids, [A]);
  deepEqual(next.chunks, [{ index: 1, message_id: A }]);
  deepEqual(next.feishu_message_ids, ["om_1"]);
  deepEqual(next.edited_message_ids, [A]);
  deepEqual((next.lifecycle as Record<string, unknown>).removed_message_ids, [B]);
});

Deno.test("lifecycleResponse() answers a single-chunk card edit exactly", () => {
  deepEqual(
    lifecycleResponse({
      operation: "edit",
      outcomes: [both[0]!],
      at: AT,
      messageId: A,
      contentType: "card",
    }),
    {
      status: "edited",
      message_id: A,
      message_ids: [A],
      chunk_count: 1,
      chunks: [{ index: 1, message_id: A }],
      content_type: "card",
    },
  );
});

Deno.test("lifecycleResponse() adds the progress hint and the removed members", () => {
  const r = lifecycleResponse({
    operation: "edit",
    outcomes: [{ messageId: A, chunkIndex: 1 }, { messageId: B, chunkIndex: 2, removed: true }],
    at: AT,
    messageId: A,
    contentType: "card",
    placeholder: true,
  });
  deepEqual([r.message_ids, r.chunk_count, r.removed_message_ids], [[A], 1, [B]]);
  deepEqual([r.placeholder, r.hint], [true, PROGRESS_EDIT_HINT]);
});

Deno.test("lifecycleResponse() answers a delete of the whole group", () => {
  deepEqual(lifecycleResponse({ operation: "delete", outcomes: both, at: AT, messageId: A }), {
    status: "deleted",
    message_id: A,
    message_ids: [A, B],
    chunk_count: 2,
    chunks: [{ index: 1, message_id: A }, { index: 2, message_id: B }],
  });
});

Deno.test("lifecycleResponse() builds the failure from the first failed member", () => {
  const r = lifecycleResponse({
    operation: "edit",
    outcomes: secondFails,
    at: AT,
    messageId: A,
    contentType: "text",
  });
  deepEqual(r, {
    status: "failed",
    error: "edit rejected",
    message: "edit rejected",
    error_code: "UNKNOWN",
    retryable: false,
    retry_after_seconds: null,
    operation: "edit",
    partial_failure: true,
    message_id: A,
    message_ids: [A, B],
    chunk_count: 2,
    chunks: [{ index: 1, message_id: A }, { index: 2, message_id: B }],
    succeeded_message_ids: [A],
    failed_message_ids: [B],
    failures: [{
      message_id: B,
      chunk_index: 2,
      error: "edit rejected",
      error_code: "UNKNOWN",
      retryable: false,
      retry_after_seconds: null,
    }],
    automatic_retry_allowed: false,
    warning: LIFECYCLE_WARNING,
    content_type: "text",
  });
  const all = lifecycleResponse({
    operation: "delete",
    outcomes: [{ messageId: A, chunkIndex: 1, error: rejected }],
    at: AT,
    messageId: A,
  });
  deepEqual([all.partial_failure, all.failed_message_ids, "content_type" in all], [
    false,
    [A],
    false,
  ]);
});
