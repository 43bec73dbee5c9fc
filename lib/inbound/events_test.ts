import assert from "node:assert/strict";
import { eventEnvelope, receiveEnvelope } from "./testdata/envelopes.ts";
import {
  buildEventRecord,
  passiveEventDate,
  passiveEventId,
  projectPassiveEvent,
} from "./events.ts";

const names: Record<string, string> = { ou_allowed: "Actor" };
const ctx = { alias: "main", nowMs: 1785680009000, contactName: (id: string) => names[id] };

const reaction = eventEnvelope("im.message.reaction.created_v1", {
  message_id: "om_target",
  reaction_type: { emoji_type: "THUMBSUP" },
  operator_type: "user",
  user_id: { union_id: "on_allowed", user_id: "user_allowed", open_id: "ou_allowed" },
  chat_id: "oc_source",
  chat_type: "p2p",
  action_time: "1785680001000",
});
const read = eventEnvelope("im.message.message_read_v1", {
  reader: {
    reader_id: { union_id: "on_allowed", user_id: "user_allowed", open_id: "ou_allowed" },
    read_time: "1785680002000",
    tenant_key: "tk",
  },
  message_id_list: ["om_bot_msg_1", "om_bot_msg_2"],
});
const added = eventEnvelope("im.chat.member.bot.added_v1", {
  chat_id: "oc_new_chat",
  operator_id: { union_id: "on_allowed", user_id: "user_allowed", open_id: "ou_allowed" },
  external: false,
  operator_tenant_key: "tk",
  name: "Project X",
  i18n_names: { zh_cn: "项目X", en_us: "Project X", ja_jp: "" },
});
const left = eventEnvelope("im.chat.member.bot.deleted_v1", {
  chat_id: "oc_new_chat",
  operator_id: { open_id: "ou_allowed" },
  external: false,
  name: "Project X",
});

Deno.test("buildEventRecord() fills a reaction's chat from the stored message when Feishu sends none, without changing a derived id", () => {
  const bare = structuredClone(reaction);
  const ev = bare.event as Record<string, unknown>;
  delete ev.chat_id;
  delete ev.chat_type;
  delete (bare.header as Record<string, unknown>).event_id;
  const lookups: string[] = [];
  const r = buildEventRecord(bare, {
    ...ctx,
    messageChat: (id) => (lookups.push(id), { chatId: "oc_found", chatType: "group" }),
  });
  assert.deepEqual(lookups, ["om_target"]);
  assert.equal(r?.source_chat_id, "oc_found");
  assert.equal(r?.event.chat_id, "oc_found");
  assert.equal(r?.event.chat_type, "group");
  assert.equal(r?.id, buildEventRecord(bare, ctx)?.id);
  // Unknown message: the chat stays null.
  const unknown = buildEventRecord(bare, { ...ctx, messageChat: () => null });
  assert.equal(unknown?.event.chat_id, null);
  assert.equal(unknown?.source_chat_id, null);
});

Deno.test("buildEventRecord() projects a reaction exactly as the checklist row says", () => {
  const r = buildEventRecord(reaction, ctx);
  assert.ok(r);
  assert.deepEqual(r.event, {
    message_id: "om_target",
    operator: { open_id: "ou_allowed", user_id: "user_allowed", name: "Actor" },
    emoji_type: "THUMBSUP",
    action: "added",
    chat_id: "oc_source",
    chat_type: "p2p",
    action_time: 1785680001000,
  });
  assert.equal(r.source_chat_id, "oc_source");
  assert.equal(r.from_open_id, "ou_allowed");
  assert.equal(r.from_name, "Actor");
  assert.equal(r.date, "2026-08-02T14:13:21Z");
});

Deno.test("buildEventRecord() builds the four event kinds as synthetic records of the events chat", () => {
  const records = [reaction, read, added, left].map((e) => buildEventRecord(e, ctx));
  assert.deepEqual(records.map((r) => r?.event_type), [
    "reaction",
    "message_read",
    "bot_added",
    "bot_leave",
  ]);
  for (const [i, r] of records.entries()) {
    assert.ok(r);
    assert.equal(r.chat_id, "events");
    assert.equal(r.chat_type, "synthetic");
    assert.equal(r.synthetic, true);
    assert.equal(r.thread_id, null);
    assert.equal(r.message_type, "event");
    assert.equal(r.text, `[${r.event_type}]`);
    assert.equal(r.id, `main:events:${r.feishu_event_id}`);
    assert.equal(r.feishu, [reaction, read, added, left][i]);
  }
});

Deno.test("buildEventRecord() projects read receipts, bot_added and bot_leave", () => {
  assert.deepEqual(buildEventRecord(read, ctx)?.event, {
    reader: { open_id: "ou_allowed", user_id: "user_allowed", name: "Actor" },
    message_ids: ["om_bot_msg_1", "om_bot_msg_2"],
  });
  assert.deepEqual(buildEventRecord(added, ctx)?.event, {
    chat_id: "oc_new_chat",
    operator: { open_id: "ou_allowed", user_id: "user_allowed", name: "Actor" },
    chat_name: "Project X",
    external: false,
  });
  assert.deepEqual(buildEventRecord(left, { alias: "main", nowMs: 0 })?.event, {
    chat_id: "oc_new_chat",
    operator: { open_id: "ou_allowed" },
  });
  assert.equal(buildEventRecord(read, ctx)?.source_chat_id, null);
});

Deno.test("buildEventRecord() marks a removed reaction and keeps missing members null", () => {
  const r = buildEventRecord(
    eventEnvelope("im.message.reaction.deleted_v1", {
      message_id: "om_t",
      reaction_type: { emoji_type: "OK" },
      operator_type: "app",
      app_id: "cli_x",
    }),
    ctx,
  );
  assert.deepEqual(r?.event, {
    message_id: "om_t",
    operator: {},
    emoji_type: "OK",
    action: "removed",
    chat_id: null,
    chat_type: null,
    action_time: null,
  });
  assert.deepEqual([r?.from_open_id, r?.from_name], ["", null]);
});

Deno.test("buildEventRecord() returns undefined for events that are not passive", () => {
  assert.equal(buildEventRecord(receiveEnvelope(), ctx), undefined);
  assert.equal(projectPassiveEvent(eventEnvelope("card.action.trigger", {})), undefined);
});

Deno.test("passiveEventId() derives a stable id when Feishu gives none", () => {
  const bare = eventEnvelope("im.message.reaction.created_v1", reaction.event ?? {}, {
    eventId: null,
  });
  const a = buildEventRecord(bare, ctx);
  const b = buildEventRecord(structuredClone(bare), { ...ctx, contactName: () => "Renamed" });
  assert.ok(a && b);
  assert.match(a.feishu_event_id, /^derived-[0-9a-f]{24}$/);
  assert.equal(a.feishu_event_id, b.feishu_event_id);
  const other = buildEventRecord(
    eventEnvelope("im.message.reaction.created_v1", { ...reaction.event, message_id: "om_other" }, {
      eventId: null,
    }),
    ctx,
  );
  assert.notEqual(other?.feishu_event_id, a.feishu_event_id);
});

Deno.test("passiveEventId() prefers header.event_id, then uuid, then event_id", () => {
  const p = { eventType: "reaction" as const, event: {} };
  assert.equal(passiveEventId({ header: { event_id: "h" }, uuid: "u", event_id: "e" }, p), "h");
  assert.equal(passiveEventId({ header: {}, uuid: "u", event_id: "e" }, p), "u");
  assert.equal(passiveEventId({ event_id: "e" }, p), "e");
});

const dates: [string, Parameters<typeof passiveEventDate>, string][] = [
  ["prefers action_time", [{ header: { create_time: "1785680002000" } }, {
    event: { action_time: 1785680001000 },
    nowMs: 0,
  }], "2026-08-02T14:13:21Z"],
  ["falls back to header.create_time", [{ header: { create_time: "1785680002000" } }, {
    event: {},
    nowMs: 0,
  }], "2026-08-02T14:13:22Z"],
  ["reads a microsecond create_time", [{ header: { create_time: "1785680002000000" } }, {
    event: {},
    nowMs: 0,
  }], "2026-08-02T14:13:22Z"],
  [
    "falls back to a top-level ts in seconds",
    [{ ts: "1785680003" }, { event: {}, nowMs: 0 }],
    "2026-08-02T14:13:23Z",
  ],
  [
    "falls back to now",
    [{ header: { create_time: "later" } }, { event: {}, nowMs: 1785680009000 }],
    "2026-08-02T14:13:29Z",
  ],
];
for (const [name, args, want] of dates) {
  Deno.test(`passiveEventDate() ${name}`, () => assert.equal(passiveEventDate(...args), want));
}

Deno.test("buildEventRecord() projects a person opening the bot's DM (p2p_entered), a first DM too", () => {
  const entered = eventEnvelope("im.chat.access_event.bot_p2p_chat_entered_v1", {
    chat_id: "oc_dm",
    operator_id: { open_id: "ou_allowed", union_id: "on_x", user_id: "user_allowed" },
    last_message_id: "",
    last_message_create_time: "",
  });
  const r = buildEventRecord(entered, ctx);
  assert.equal(r?.event_type, "p2p_entered");
  assert.equal(r?.text, "[p2p_entered]");
  assert.equal(r?.source_chat_id, "oc_dm");
  assert.equal(r?.from_open_id, "ou_allowed");
  assert.deepEqual(r?.event, {
    chat_id: "oc_dm",
    chat_type: "p2p",
    operator: { open_id: "ou_allowed", user_id: "user_allowed", name: "Actor" },
    last_message_id: null,
  });
});

Deno.test("a dissolved chat and a recalled message project to their own event types", () => {
  const disbanded = eventEnvelope("im.chat.disbanded_v1", {
    chat_id: "oc_gone",
    operator_id: { open_id: "ou_allowed", union_id: "on_allowed" },
    name: "Old team",
  });
  assert.deepEqual(projectPassiveEvent(disbanded, ctx)?.event, {
    chat_id: "oc_gone",
    operator: { open_id: "ou_allowed", name: "Actor" },
    chat_name: "Old team",
  });
  const recalled = eventEnvelope("im.message.recalled_v1", {
    message_id: "om_1",
    chat_id: "oc_1",
    recall_time: "1785680003000",
    recall_type: "group_manager",
  });
  const record = buildEventRecord(recalled, ctx);
  assert.equal(record?.event_type, "message_recalled");
  assert.equal(record?.source_chat_id, "oc_1");
  assert.deepEqual(record?.event, {
    message_id: "om_1",
    chat_id: "oc_1",
    recall_type: "group_manager",
    recall_time: 1785680003000,
  });
});
