import { deepEqual, equal, ok } from "node:assert/strict";
import { BridgeError, failure } from "../core/mod.ts";
import { normaliseOutbound } from "./content.ts";
import { wrapProgressCard } from "./progress.ts";
import {
  partialDeliveryFailure,
  partialWarning,
  progressHint,
  sendSuccess,
  sentRecord,
} from "./results.ts";

const ID = "main:oc_chat:om_sent";
const AT = Date.UTC(2026, 7, 8, 10, 20, 30, 999);

Deno.test("sendSuccess() returns exactly the single-chunk response the manual documents", () => {
  deepEqual(sendSuccess({ messageIds: [ID], contentType: "text" }), {
    status: "sent",
    message_id: ID,
    message_ids: [ID],
    chunk_count: 1,
    chunks: [{ index: 1, message_id: ID }],
    content_type: "text",
  });
});

Deno.test("sendSuccess() adds reply_in_thread and a known thread_id for replies", () => {
  const r = sendSuccess({
    messageIds: [ID, "main:oc_chat:om_2"],
    contentType: "markdown",
    threadId: "omt_topic",
    replyInThread: true,
  });
  equal(r.chunk_count, 2);
  equal(r.thread_id, "omt_topic");
  equal(r.reply_in_thread, true);
  const flat = sendSuccess({
    messageIds: [ID],
    contentType: "text",
    threadId: "",
    replyInThread: false,
  });
  equal("thread_id" in flat, false);
  equal(flat.reply_in_thread, false);
});

Deno.test("sendSuccess() marks a progress card and tells the agent how to edit it", () => {
  const r = sendSuccess({ messageIds: [ID], contentType: "card", placeholder: true });
  equal(r.placeholder, true);
  equal(r.hint, progressHint(ID));
  ok(String(r.hint).includes(`feishu(action='edit', message_id='${ID}'`));
});

Deno.test("partialDeliveryFailure() returns the chunk's failure plus the delivery facts", () => {
  const r = partialDeliveryFailure({
    error: new BridgeError("RATE_LIMITED", "rate limited", {
      retryable: true,
      retryAfterSeconds: 2,
    }),
    deliveredIds: ["main:oc_1:om_delivered"],
    chunkCount: 3,
    contentType: "markdown",
  });
  deepEqual(r, {
    status: "failed",
    error: "rate limited",
    message: "rate limited",
    error_code: "RATE_LIMITED",
    retryable: true,
    retry_after_seconds: 2,
    partial_delivery: true,
    message_id: "main:oc_1:om_delivered",
    message_ids: ["main:oc_1:om_delivered"],
    chunk_count: 3,
    delivered_chunk_count: 1,
    failed_chunk_index: 2,
    chunks: [{ index: 1, message_id: "main:oc_1:om_delivered" }],
    content_type: "markdown",
    automatic_retry_allowed: false,
    warning: partialWarning(1, 3),
  });
  ok(String(r.warning).includes("Do not retry the whole action"));
});

Deno.test("partialDeliveryFailure() keeps thread facts of a partial reply and takes a rendered failure", () => {
  const r = partialDeliveryFailure({
    error: failure("RATE_LIMITED", "slow", { retryable: true, retryAfterSeconds: 2 }),
    deliveredIds: ["main:oc_1:om_1"],
    chunkCount: 2,
    contentType: "text",
    threadId: "omt_topic",
    replyInThread: true,
  });
  equal(r.thread_id, "omt_topic");
  equal(r.reply_in_thread, true);
  equal(r.retry_after_seconds, 2);
});

Deno.test("sentRecord() stores a two-chunk markdown send with every chunk id, its content and its chunk list", async () => {
  const content = await normaliseOutbound({ content: { type: "markdown", markdown: "# a\n\nb" } });
  deepEqual(
    sentRecord({
      alias: "main",
      chatId: "oc_chat",
      to: { receive_id: "ou_user", receive_id_type: "open_id" },
      providerIds: ["om_1", "om_2"],
      content,
      at: AT,
      provider: { root_id: "", parent_id: null, thread_id: "omt_1" },
    }),
    {
      id: "main:oc_chat:om_1",
      feishu_message_id: "om_1",
      feishu_message_ids: ["om_1", "om_2"],
      message_ids: ["main:oc_chat:om_1", "main:oc_chat:om_2"],
      chunks: [{ index: 1, message_id: "main:oc_chat:om_1" }, {
        index: 2,
        message_id: "main:oc_chat:om_2",
      }],
      to: { receive_id: "ou_user", receive_id_type: "open_id" },
      chat_id: "oc_chat",
      message_type: "post",
      content: { type: "markdown", markdown: "# a\n\nb" },
      text: "# a\n\nb",
      sent_at: "2026-08-08T10:20:30Z",
      date: "2026-08-08T10:20:30Z",
      create_time_ms: AT,
      status: "sent",
      thread_id: "omt_1",
    },
  );
});

Deno.test("sentRecord() stores a partial delivery with its error facts", async () => {
  const r = sentRecord({
    alias: "main",
    chatId: "oc_1",
    to: { receive_id: "oc_1", receive_id_type: "chat_id" },
    providerIds: ["om_1"],
    content: await normaliseOutbound({ text: "x" }),
    at: AT,
    partial: {
      chunkCount: 3,
      error: new BridgeError("RATE_LIMITED", "slow", { retryable: true, retryAfterSeconds: 2 }),
    },
    reply: { replyTo: "main:oc_1:om_0", replyInThread: false },
  });
  deepEqual(
    [r.status, r.partial_delivery, r.chunk_count, r.delivered_chunk_count, r.failed_chunk_index],
    ["partial", true, 3, 1, 2],
  );
  deepEqual(
    [r.error, r.error_code, r.retryable, r.retry_after_seconds, r.automatic_retry_allowed],
    ["slow", "RATE_LIMITED", true, 2, false],
  );
  deepEqual([r.reply_to, r.reply_in_thread], ["main:oc_1:om_0", false]);
});

Deno.test("sentRecord() marks a progress card and keeps a media summary, never the path", async () => {
  const card = wrapProgressCard(await normaliseOutbound({ text: "step" }), { mode: "send" });
  const r = sentRecord({
    alias: "main",
    chatId: "oc_1",
    to: { receive_id: "oc_1", receive_id_type: "chat_id" },
    providerIds: ["om_1"],
    content: card,
    at: AT,
    placeholder: true,
  });
  deepEqual([r.status, r.placeholder, r.message_type, r.text], [
    "placeholder",
    true,
    "interactive",
    "LingTai\n⏳ step",
  ]);
  const media = sentRecord({
    alias: "main",
    chatId: "oc_1",
    to: { receive_id: "oc_1", receive_id_type: "chat_id" },
    providerIds: ["om_2"],
    content: {
      type: "image",
      recordContent: { type: "image", source: { type: "path", path: "/r/a.png" } },
      previewText: "[image: a.png]",
      messageType: "image",
      mediaSummary: { type: "image", filename: "a.png", size: 4 },
    },
    at: AT,
  });
  deepEqual(media.media, { type: "image", filename: "a.png", size: 4 });
  deepEqual(media.content, { type: "image", source: { type: "path", path: "/r/a.png" } });
});
