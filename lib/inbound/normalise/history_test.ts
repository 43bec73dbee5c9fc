import assert from "node:assert/strict";
import { BOT_APP_ID, BOT_OPEN_ID } from "../testdata/envelopes.ts";
import { admitMessage } from "../admission.ts";
import { envelopeFromHistoryItem } from "./history.ts";
import { normaliseMessage } from "./normalise.ts";

/** A message object as `GET /im/v1/messages` lists it. */
const userItem = {
  message_id: "om_hist1",
  root_id: "om_root",
  parent_id: "om_root",
  thread_id: "omt_t1",
  msg_type: "text",
  create_time: "1785748502000",
  update_time: "1785748502000",
  deleted: false,
  updated: false,
  chat_id: "oc_group",
  sender: { id: "ou_alice", id_type: "open_id", sender_type: "user", tenant_key: "tk" },
  body: { content: '{"text":"@_user_1 catch up"}' },
  mentions: [{
    key: "@_user_1",
    id: BOT_OPEN_ID,
    id_type: "open_id",
    name: "Bot",
    tenant_key: "tk",
  }],
};

Deno.test("envelopeFromHistoryItem() feeds the normaliser a record flagged as backfilled", () => {
  const envelope = envelopeFromHistoryItem(userItem, { chatType: "group" });
  const out = normaliseMessage(envelope, {
    alias: "main",
    botOpenId: BOT_OPEN_ID,
    nowMs: 1785748502000 + 7_200_000,
  });
  assert.ok(out);
  const r = out.record;
  assert.equal(r.id, "main:oc_group:om_hist1");
  assert.equal(r.backfilled, true);
  assert.equal(r.delayed_seconds, 7200);
  assert.equal(r.text, "catch up");
  assert.equal(r.chat_type, "topic");
  assert.equal(r.thread_id, "omt_t1");
  assert.equal(r.reply_to, "main:oc_group:om_root");
  assert.equal(r.from_open_id, "ou_alice");
  assert.equal(r.mentions[0]?.is_bot, true);
  assert.equal(r.date, "2026-08-03T09:15:02Z");
  assert.equal(envelope.header?.event_id, "backfill-om_hist1");
});

Deno.test("envelopeFromHistoryItem() flags a backfilled record even when it is not late", () => {
  const out = normaliseMessage(envelopeFromHistoryItem(userItem, { chatType: "p2p" }), {
    alias: "main",
    nowMs: 1785748502000,
  });
  assert.deepEqual([out?.record.backfilled, out?.record.delayed_seconds], [true, 0]);
});

Deno.test("envelopeFromHistoryItem() leaves the chat type unknown when the caller does not know it", () => {
  const out = normaliseMessage(envelopeFromHistoryItem({ ...userItem, thread_id: undefined }), {
    alias: "main",
    nowMs: 0,
  });
  assert.equal(out?.record.chat_type, "unknown");
});

Deno.test("envelopeFromHistoryItem() keeps the app id of the bot's own messages so admission drops them", () => {
  const own = {
    ...userItem,
    message_id: "om_mine",
    sender: { id: BOT_APP_ID, id_type: "app_id", sender_type: "app", tenant_key: "tk" },
  };
  const envelope = envelopeFromHistoryItem(own, { chatType: "group" });
  assert.deepEqual(admitMessage(envelope, { botOpenId: BOT_OPEN_ID, botAppId: BOT_APP_ID }), {
    admit: false,
    reason: "self_sent",
  });
});

Deno.test("envelopeFromHistoryItem() carries image content so descriptors fall back to it", () => {
  const out = normaliseMessage(
    envelopeFromHistoryItem({
      ...userItem,
      msg_type: "image",
      body: { content: '{"image_key":"img_h"}' },
      mentions: undefined,
    }, { chatType: "p2p" }),
    { alias: "main", nowMs: 0 },
  );
  assert.deepEqual(out?.descriptors, [{ type: "image", file_key: "img_h" }]);
});
