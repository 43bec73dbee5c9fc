import assert from "node:assert/strict";
import {
  BOT_APP_ID,
  BOT_OPEN_ID,
  eventEnvelope,
  mention,
  receiveEnvelope,
} from "./testdata/envelopes.ts";
import {
  type AdmissionPolicy,
  admitMessage,
  admitPassiveEvent,
  REJECT_REASONS,
  shouldReact,
} from "./admission.ts";
import type { RawEnvelope } from "../feishu/mod.ts";

const ALLOWED = "ou_allowed";
const open: AdmissionPolicy = { botOpenId: BOT_OPEN_ID, botAppId: BOT_APP_ID };
const gated: AdmissionPolicy = { ...open, allowedUsers: [ALLOWED] };
const botMention = mention("@_user_1", BOT_OPEN_ID, "Bot");

interface Case {
  name: string;
  envelope: RawEnvelope;
  policy: AdmissionPolicy;
  want: ReturnType<typeof admitMessage>;
}

const messageCases: Case[] = [
  {
    name: "drops a sender outside a non-empty allowlist",
    envelope: receiveEnvelope({ senderOpenId: "ou_stranger" }),
    policy: gated,
    want: { admit: false, reason: "sender_not_allowed" },
  },
  {
    name: "admits an allowlisted DM without a mention",
    envelope: receiveEnvelope({ senderOpenId: ALLOWED }),
    policy: gated,
    want: { admit: true },
  },
  {
    name: "admits anyone when the allowlist is empty",
    envelope: receiveEnvelope({ senderOpenId: "ou_anyone" }),
    policy: { ...open, allowedUsers: [] },
    want: { admit: true },
  },
  {
    name: "admits anyone when the allowlist is null",
    envelope: receiveEnvelope({ senderOpenId: "ou_anyone" }),
    policy: { ...open, allowedUsers: null },
    want: { admit: true },
  },
  {
    name: "drops an unmentioned group message",
    envelope: receiveEnvelope({ chatType: "group", senderOpenId: ALLOWED }),
    policy: gated,
    want: { admit: false, reason: "bot_not_mentioned" },
  },
  {
    name: "drops a group message that mentions someone else",
    envelope: receiveEnvelope({ chatType: "group", mentions: [mention("@_user_1", "ou_x", "X")] }),
    policy: open,
    want: { admit: false, reason: "bot_not_mentioned" },
  },
  {
    name: "admits a group message that mentions the bot",
    envelope: receiveEnvelope({ chatType: "group", senderOpenId: ALLOWED, mentions: [botMention] }),
    policy: gated,
    want: { admit: true },
  },
  {
    name: "admits a topic message whose mentions hold the cached bot open_id",
    envelope: receiveEnvelope({
      chatType: "group",
      threadId: "omt_1",
      senderOpenId: ALLOWED,
      mentions: [mention("@_user_1", "ou_other", "Other"), botMention],
    }),
    policy: gated,
    want: { admit: true },
  },
  {
    name: "drops a message of an unknown chat kind without a mention",
    envelope: receiveEnvelope({ chatType: "" }),
    policy: open,
    want: { admit: false, reason: "bot_not_mentioned" },
  },
  {
    name: "drops a group message when the bot identity is unknown",
    envelope: receiveEnvelope({ chatType: "group", mentions: [botMention] }),
    policy: { botOpenId: null },
    want: { admit: false, reason: "bot_not_mentioned" },
  },
  {
    name: "drops a message the bot sent itself",
    envelope: receiveEnvelope({ senderOpenId: BOT_OPEN_ID, senderType: "app" }),
    policy: open,
    want: { admit: false, reason: "self_sent" },
  },
  {
    name: "admits a DM whose sender matches no known bot id when the identity is unknown",
    envelope: receiveEnvelope({ senderOpenId: BOT_OPEN_ID }),
    policy: {},
    want: { admit: true },
  },
  {
    name: "drops @all without the bot in a group",
    envelope: receiveEnvelope({
      chatType: "group",
      content: { text: "@_all standup" },
      mentions: [{ key: "@_all", id: { user_id: "all" }, name: "all" }],
    }),
    policy: open,
    want: { admit: false, reason: "mention_all_without_bot" },
  },
  {
    name: "drops @all without the bot in a group even when only the text carries @_all",
    envelope: receiveEnvelope({ chatType: "group", content: { text: "@_all standup" } }),
    policy: open,
    want: { admit: false, reason: "mention_all_without_bot" },
  },
  {
    name: "admits @all together with the bot in a group",
    envelope: receiveEnvelope({
      chatType: "group",
      content: { text: "@_all @_user_1 standup" },
      mentions: [{ key: "@_all", id: { user_id: "all" }, name: "all" }, botMention],
    }),
    policy: open,
    want: { admit: true },
  },
  {
    name: "checks @all before the allowlist",
    envelope: receiveEnvelope({
      chatType: "group",
      senderOpenId: "ou_stranger",
      content: { text: "@_all hi" },
    }),
    policy: gated,
    want: { admit: false, reason: "mention_all_without_bot" },
  },
  {
    name: "rejects an envelope without a message id",
    envelope: { schema: "2.0", event: { message: { chat_id: "oc_1" } } },
    policy: open,
    want: { admit: false, reason: "malformed" },
  },
];

/** Another app's bot, as Feishu sends its group messages. */
const OTHER_BOT = "ou_other_bot";
const fromBot = (mentions: unknown[] = [], chatType = "group") =>
  receiveEnvelope({ chatType, senderOpenId: OTHER_BOT, senderType: "app", mentions });

messageCases.push(
  {
    name: "admits another bot's group message that mentions this bot (bots: mention, the default)",
    envelope: fromBot([botMention]),
    policy: gated,
    want: { admit: true },
  },
  {
    name: "drops another bot's group message without a mention by default",
    envelope: fromBot(),
    policy: open,
    want: { admit: false, reason: "bot_not_mentioned" },
  },
  {
    name: "drops another bot's @all without this bot by default",
    envelope: fromBot([{ key: "@_all", id: { user_id: "all" } }]),
    policy: open,
    want: { admit: false, reason: "mention_all_without_bot" },
  },
  {
    name: "applies the group rule to a bot in a DM (bots: mention)",
    envelope: fromBot([], "p2p"),
    policy: { ...open, dm: "open" },
    want: { admit: false, reason: "bot_not_mentioned" },
  },
  {
    name: "drops every message of another bot under bots: ignore, even one that mentions this bot",
    envelope: fromBot([botMention]),
    policy: { ...open, bots: "ignore" },
    want: { admit: false, reason: "bot_ignored" },
  },
  {
    name: "admits another bot's unmentioned message under bots: all, allowlist or not",
    envelope: fromBot(),
    policy: { ...gated, dm: "pairing", bots: "all" },
    want: { admit: true },
  },
  {
    name: "still drops this bot's own message under bots: all",
    envelope: receiveEnvelope({ chatType: "group", senderOpenId: BOT_OPEN_ID, senderType: "app" }),
    policy: { ...open, bots: "all" },
    want: { admit: false, reason: "self_sent" },
  },
  {
    name: "treats sender_type bot like app",
    envelope: receiveEnvelope({ chatType: "group", senderOpenId: OTHER_BOT, senderType: "bot" }),
    policy: { ...open, bots: "ignore" },
    want: { admit: false, reason: "bot_ignored" },
  },
);

for (const c of messageCases) {
  Deno.test(`admitMessage() ${c.name}`, () => {
    assert.deepEqual(admitMessage(c.envelope, c.policy), c.want);
  });
}

const reaction = (operator: Record<string, unknown>) =>
  eventEnvelope("im.message.reaction.created_v1", {
    message_id: "om_target",
    reaction_type: { emoji_type: "THUMBSUP" },
    action_time: "1785680001000",
    ...operator,
  });
const userOp = (openId: string) => ({
  operator_type: "user",
  user_id: { open_id: openId, user_id: "u1", union_id: "on_1" },
});
const read = (openId: string) =>
  eventEnvelope("im.message.message_read_v1", {
    reader: { reader_id: { open_id: openId }, read_time: "1785680002000" },
    message_id_list: ["om_a"],
  });
const added = (openId: string) =>
  eventEnvelope("im.chat.member.bot.added_v1", {
    chat_id: "oc_new",
    operator_id: { open_id: openId },
  });
const left = (openId: string) =>
  eventEnvelope("im.chat.member.bot.deleted_v1", {
    chat_id: "oc_new",
    operator_id: { open_id: openId },
  });

const eventCases: Case[] = [
  {
    name: "drops a reaction by an actor outside the allowlist",
    envelope: reaction(userOp("ou_x")),
    policy: gated,
    want: { admit: false, reason: "actor_not_allowed" },
  },
  {
    name: "admits an allowed reaction",
    envelope: reaction(userOp(ALLOWED)),
    policy: gated,
    want: { admit: true },
  },
  {
    name: "gates a read receipt by its reader",
    envelope: read(ALLOWED),
    policy: gated,
    want: { admit: true },
  },
  {
    name: "drops a read receipt by a reader outside the allowlist",
    envelope: read("ou_x"),
    policy: gated,
    want: { admit: false, reason: "actor_not_allowed" },
  },
  {
    name: "admits bot_added by an allowed operator",
    envelope: added(ALLOWED),
    policy: gated,
    want: { admit: true },
  },
  {
    name: "admits bot_leave by an allowed operator",
    envelope: left(ALLOWED),
    policy: gated,
    want: { admit: true },
  },
  {
    name: "rejects an empty actor when the allowlist is non-empty",
    envelope: reaction({ operator_type: "user" }),
    policy: gated,
    want: { admit: false, reason: "actor_not_allowed" },
  },
  {
    name: "admits an empty actor when the allowlist is empty",
    envelope: reaction({ operator_type: "user" }),
    policy: open,
    want: { admit: true },
  },
  {
    name: "drops a reaction made by this app",
    envelope: reaction({ operator_type: "app", app_id: BOT_APP_ID }),
    policy: open,
    want: { admit: false, reason: "self_reaction" },
  },
  {
    name: "drops a reaction attributed to the bot's open_id",
    envelope: reaction(userOp(BOT_OPEN_ID)),
    policy: open,
    want: { admit: false, reason: "self_reaction" },
  },
  {
    name: "admits a reaction made by another app when no allowlist is set",
    envelope: reaction({ operator_type: "app", app_id: "cli_other0000000000" }),
    policy: open,
    want: { admit: true },
  },
  {
    name: "rejects a message envelope as not a passive event",
    envelope: receiveEnvelope(),
    policy: open,
    want: { admit: false, reason: "not_a_passive_event" },
  },
];

for (const c of eventCases) {
  Deno.test(`admitPassiveEvent() ${c.name}`, () => {
    assert.deepEqual(admitPassiveEvent(c.envelope, c.policy), c.want);
  });
}

Deno.test("admitMessage() and admitPassiveEvent() only return reasons from the closed set", () => {
  for (const c of [...messageCases, ...eventCases]) {
    if (!c.want.admit) assert.ok(REJECT_REASONS.includes(c.want.reason));
  }
});

Deno.test("shouldReact() plans OK and Typing for every message, targeted at the DM's sender or the chat", () => {
  const group = receiveEnvelope({ chatId: "oc_g", chatType: "group", mentions: [botMention] });
  const target = { receive_id: "oc_g", receive_id_type: "chat_id" };
  assert.deepEqual(shouldReact(group), { ok: true, typing: true, target });
  // A later message of the same chat plans a Typing too: presence moves the chat's one Typing.
  const later = receiveEnvelope({ chatId: "oc_g", chatType: "group" });
  assert.deepEqual(shouldReact(later), { ok: true, typing: true, target });
  assert.deepEqual(shouldReact(receiveEnvelope({ chatId: "oc_dm", senderOpenId: "ou_a" })), {
    ok: true,
    typing: true,
    target: { receive_id: "ou_a", receive_id_type: "open_id" },
  });
});

// Access rules: owners, allowed users and paired people are "admitted".
const PAIRED = "ou_paired";
const admitsPaired = (id: string) => id === ALLOWED || id === PAIRED;

Deno.test("access.dm pairing: a DM from someone not admitted is pairing_required; the paired pass", () => {
  const policy: AdmissionPolicy = { ...open, dm: "pairing", admits: admitsPaired };
  assert.deepEqual(admitMessage(receiveEnvelope({ senderOpenId: "ou_stranger" }), policy), {
    admit: false,
    reason: "pairing_required",
  });
  assert.deepEqual(admitMessage(receiveEnvelope({ senderOpenId: PAIRED }), policy), {
    admit: true,
  });
});

Deno.test("access.dm allowlist refuses strangers as sender_not_allowed; open lets everyone DM", () => {
  const stranger = receiveEnvelope({ senderOpenId: "ou_stranger" });
  assert.deepEqual(admitMessage(stranger, { ...open, dm: "allowlist", admits: admitsPaired }), {
    admit: false,
    reason: "sender_not_allowed",
  });
  assert.deepEqual(admitMessage(stranger, { ...gated, dm: "open", admits: admitsPaired }), {
    admit: true,
  });
});

Deno.test("groups keep their rule: open without allowed_users, admitted people (paired too) with them", () => {
  const group = (sender: string) =>
    receiveEnvelope({ chatType: "group", senderOpenId: sender, mentions: [botMention] });
  const pairing = { ...open, dm: "pairing" as const, admits: admitsPaired };
  assert.deepEqual(admitMessage(group("ou_stranger"), pairing), { admit: true });
  const listed = { ...pairing, allowedUsers: [ALLOWED] };
  assert.deepEqual(admitMessage(group(PAIRED), listed), { admit: true });
  assert.deepEqual(admitMessage(group("ou_stranger"), listed), {
    admit: false,
    reason: "sender_not_allowed",
  });
});
