import assert from "node:assert/strict";
import { BOT_OPEN_ID, mention, receiveEnvelope } from "../testdata/envelopes.ts";
import { normaliseMessage } from "./normalise.ts";
import type { MessageContent } from "../../store/mod.ts";

const ctx = { alias: "main", botOpenId: BOT_OPEN_ID, nowMs: 1785748503000 };

interface Case {
  name: string;
  type: string;
  content?: unknown;
  rawContent?: string;
  mentions?: unknown[];
  text: string;
  kind?: MessageContent["kind"];
  /** Expected content, compared whole when given. */
  record?: unknown;
  /** Expected descriptors as [type, file_key, role?]. */
  descriptors?: (string | undefined)[][];
}

const cases: Case[] = [
  {
    name: "resolves text placeholders to names and @_all to @all",
    type: "text",
    content: { text: "@_user_1 ping @_all" },
    mentions: [mention("@_user_1", "ou_ann", "Ann"), { key: "@_all", id: {}, name: "all" }],
    text: "@Ann ping @all",
    record: { kind: "text", text: "@Ann ping @all" },
  },
  {
    name: "renders an image as markdown with one image descriptor",
    type: "image",
    content: { image_key: "img_v3_k1" },
    text: "![image](img_v3_k1)",
    record: { kind: "image", image_key: "img_v3_k1" },
    descriptors: [["image", "img_v3_k1", undefined]],
  },
  {
    name: "renders an image without a key as [image]",
    type: "image",
    content: {},
    text: "[image]",
    descriptors: [],
  },
  {
    name: "renders a file tag with its name",
    type: "file",
    content: { file_key: "file-key", file_name: "report.txt" },
    text: '<file key="file-key" name="report.txt"/>',
    record: { kind: "file", file_key: "file-key", file_name: "report.txt" },
    descriptors: [["file", "file-key", undefined]],
  },
  {
    name: "renders audio with its duration in seconds",
    type: "audio",
    content: { file_key: "audio-key", duration: 1500 },
    text: '<audio key="audio-key" duration="1.5s"/>',
    record: { kind: "audio", file_key: "audio-key", duration_ms: 1500 },
    descriptors: [["audio", "audio-key", undefined]],
  },
  {
    name: "renders audio without a duration as a bare tag",
    type: "audio",
    content: { file_key: "audio-key" },
    text: '<audio key="audio-key"/>',
  },
  {
    name: "renders a video and lists its cover after it",
    type: "media",
    content: { file_key: "v1", image_key: "img_cover", file_name: "clip.mp4", duration: 30000 },
    text: '<video key="v1" name="clip.mp4" duration="30s"/>',
    record: {
      kind: "media",
      file_key: "v1",
      image_key: "img_cover",
      duration_ms: 30000,
      file_name: "clip.mp4",
    },
    descriptors: [["video", "v1", undefined], ["image", "img_cover", "cover"]],
  },
  {
    name: "renders a video without a key as [video]",
    type: "media",
    content: {},
    text: "[video]",
  },
  {
    name: "renders a sticker tag",
    type: "sticker",
    content: { file_key: "stk_1" },
    text: '<sticker key="stk_1"/>',
    descriptors: [["sticker", "stk_1", undefined]],
  },
  {
    name: "renders a folder tag and downloads nothing",
    type: "folder",
    content: { file_key: "fld_1", file_name: "Specs", file_size: 0 },
    text: '<folder key="fld_1" name="Specs"/>',
    record: { kind: "folder", file_key: "fld_1", file_name: "Specs", file_size: 0 },
    descriptors: [],
  },
  {
    name: "walks a v1 card's header, text and buttons",
    type: "interactive",
    content: {
      config: { wide_screen_mode: true },
      header: { title: { tag: "plain_text", content: "Approval" }, template: "blue" },
      elements: [
        { tag: "div", text: { tag: "lark_md", content: "**Deploy** v2?" } },
        {
          tag: "action",
          actions: [{
            tag: "button",
            text: { tag: "plain_text", content: "Approve" },
            value: { a: 1 },
          }],
        },
        { tag: "note", elements: [{ tag: "plain_text", content: "Approval" }] },
      ],
    },
    text: "Approval\n**Deploy** v2?\nApprove",
    kind: "interactive",
  },
  {
    name: "walks the simplified card Feishu puts in receive events",
    type: "interactive",
    content: {
      title: "Build report",
      elements: [[{ tag: "text", text: "3 passed" }], [{
        tag: "a",
        text: "logs",
        href: "https://x",
      }]],
    },
    text: "Build report\n3 passed\nlogs",
  },
  {
    name: "renders an empty card as [interactive card]",
    type: "interactive",
    content: {},
    text: "[interactive card]",
  },
  {
    name: "renders a shared chat as a group card",
    type: "share_chat",
    content: { chat_id: "oc_abc" },
    text: '<group_card id="oc_abc"/>',
    record: { kind: "share_chat", chat_id: "oc_abc" },
  },
  {
    name: "renders a shared user as a contact card",
    type: "share_user",
    content: { user_id: "ou_bob" },
    text: '<contact_card id="ou_bob"/>',
  },
  {
    name: "renders a todo with title, body and due time",
    type: "todo",
    content: {
      task_id: "t1",
      summary: {
        title: "Ship",
        content: [[{ tag: "text", text: "release " }, { tag: "a", text: "notes" }]],
      },
      due_time: "1785748502000",
    },
    text: "<todo>\nShip\nrelease notes\nDue: 2026-08-03T09:15:02Z\n</todo>",
    record: {
      kind: "todo",
      title: "Ship",
      body: "release notes",
      due_time: "2026-08-03T09:15:02Z",
    },
  },
  {
    name: "renders an empty todo as the placeholder",
    type: "todo",
    content: {},
    text: "<todo>\n[todo]\n</todo>",
  },
  {
    name: "renders a location with coordinates",
    type: "location",
    content: { name: "Cafe", longitude: "116.4", latitude: "39.9" },
    text: '<location name="Cafe" coords="lat:39.9,lng:116.4"/>',
  },
  {
    name: "fills a system template",
    type: "system",
    content: {
      template: "{from_user} invited {to_chatters} to the group",
      from_user: ["Ann"],
      to_chatters: ["Bo"],
    },
    text: "Ann invited Bo to the group",
    record: {
      kind: "system",
      template: "{from_user} invited {to_chatters} to the group",
      from_user: ["Ann"],
      to_chatters: ["Bo"],
    },
  },
  {
    name: "renders a red packet",
    type: "hongbao",
    content: { text: "Happy new year" },
    text: '<hongbao text="Happy new year"/>',
  },
  {
    name: "renders a calendar invite",
    type: "calendar",
    content: { summary: "Sync", start_time: "1785748502000", end_time: "1785752102000" },
    text:
      "<calendar_invite>\n📅 Sync\n🕙 2026-08-03T09:15:02Z ~ 2026-08-03T10:15:02Z\n</calendar_invite>",
  },
  {
    name: "renders a general calendar event",
    type: "general_calendar",
    content: { summary: "Offsite" },
    text: "<calendar>\n📅 Offsite\n</calendar>",
  },
  {
    name: "renders a shared calendar event",
    type: "share_calendar_event",
    content: { summary: "Review" },
    text: "<calendar_share>\n📅 Review\n</calendar_share>",
  },
  {
    name: "renders a video chat with topic and meeting number",
    type: "video_chat",
    content: { topic: "Standup", meet_number: "976464587", start_time: "1785748502000" },
    text: "<meeting>\n📹 Standup\n🔢 976464587\n🕙 2026-08-03T09:15:02Z\n</meeting>",
  },
  {
    name: "renders a vote with its options",
    type: "vote",
    content: { topic: "Lunch?", options: ["Noodles", "Rice"] },
    text: "<vote>\nLunch?\n• Noodles\n• Rice\n</vote>",
  },
  {
    name: "keeps merge_forward unexpanded",
    type: "merge_forward",
    content: { content: "Merged and Forwarded Message" },
    text: "<forwarded_messages/>",
    record: { kind: "merge_forward", loading: false, items: [], truncated: false, error: null },
  },
  {
    name: "uses the unknown converter for a future type with text",
    type: "shiny_new_type",
    content: { text: "from the future" },
    text: "from the future",
    record: { kind: "unknown", message_type: "shiny_new_type" },
  },
  {
    name: "uses the unknown converter for a future type without text",
    type: "shiny_new_type",
    content: { x: 1 },
    text: "[unsupported message]",
  },
  {
    name: "treats malformed post JSON as an empty post",
    type: "post",
    rawContent: "not json",
    text: "[rich text message]",
  },
];

for (const c of cases) {
  Deno.test(`normaliseMessage() ${c.name}`, () => {
    const out = normaliseMessage(
      receiveEnvelope({
        messageType: c.type,
        content: c.content,
        rawContent: c.rawContent,
        mentions: c.mentions,
      }),
      ctx,
    );
    assert.ok(out);
    assert.equal(out.record.text, c.text);
    assert.equal(out.record.message_type, c.type);
    assert.equal(out.converterError, undefined);
    assert.equal("raw" in out.record.content, false);
    if (c.kind) assert.equal(out.record.content.kind, c.kind);
    if (c.record) assert.deepEqual(out.record.content, c.record);
    if (c.descriptors) {
      assert.deepEqual(out.descriptors.map((d) => [d.type, d.file_key, d.role]), c.descriptors);
    }
  });
}
