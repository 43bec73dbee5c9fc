import assert from "node:assert/strict";
import { chatControlsHtml, chatNotice, dissolveQuestion } from "./chat_controls.ts";
import { chatLabel } from "./chats.ts";
import type { PageChat, PageState } from "./types.ts";

const state: PageState = {
  app: { app_id: "cli_1", bot_open_id: "ou_bot", bot_name: "EmuBot" },
  users: [{ open_id: "ou_alice", name: "Alice" }, { open_id: "ou_bob", name: "Bob" }],
  chats: [],
};

const team: PageChat = {
  chat_id: "oc_team",
  name: "Team",
  chat_mode: "group",
  members: ["ou_alice", "ou_bob"],
  bot_member: true,
  owner_id: "ou_alice",
  dissolved: false,
};

function buttons(html: string): string[] {
  return [...html.matchAll(/data-control="([^"]+)"[^>]*>([^<]*)</g)].map((m) => `${m[1]}:${m[2]}`);
}

Deno.test("chatControlsHtml() toggles the bot for members and offers Dissolve to the owner only", () => {
  assert.deepEqual(buttons(chatControlsHtml(team, state, "ou_alice")), [
    "bot-remove:Remove bot",
    "dissolve:Dissolve group",
  ]);
  assert.deepEqual(buttons(chatControlsHtml(team, state, "ou_bob")), ["bot-remove:Remove bot"]);
  assert.deepEqual(
    buttons(chatControlsHtml({ ...team, bot_member: false }, state, "ou_bob")),
    ["bot-add:Add bot"],
  );
  assert.equal(chatControlsHtml(team, state, "ou_stranger"), "");
  assert.equal(chatControlsHtml({ ...team, dissolved: true }, state, "ou_alice"), "");
  assert.equal(chatControlsHtml({ ...team, chat_mode: "p2p" }, state, "ou_alice"), "");
  assert.equal(
    buttons(chatControlsHtml({ ...team, chat_mode: "topic" }, state, "ou_bob")).length,
    1,
  );
});

Deno.test("chatControlsHtml() escapes the bot's name in its titles", () => {
  const evil = { ...state, app: { ...state.app, bot_name: `<img src=x onerror="a">` } };
  const html = chatControlsHtml(team, evil, "ou_alice");
  assert.ok(!html.includes("<img"));
  assert.ok(
    html.includes('title="Remove &lt;img src=x onerror=&quot;a&quot;&gt; from this group"'),
  );
});

Deno.test("chatNotice() says a group was dissolved (no composer) or that the bot is not in it", () => {
  assert.equal(chatNotice(team, state), undefined);
  assert.deepEqual(chatNotice({ ...team, bot_member: false }, state), {
    kind: "no-bot",
    text: "EmuBot is not in this group: messages are stored but no event reaches the bot.",
    canSend: true,
  });
  assert.match(
    chatNotice({ ...team, chat_mode: "p2p", bot_member: false }, state)?.text ?? "",
    /^EmuBot is not in this chat:/,
  );
  assert.deepEqual(chatNotice({ ...team, bot_member: false, dissolved: true }, state), {
    kind: "dissolved",
    text: "This group was dissolved",
    canSend: false,
  });
});

Deno.test("chatLabel() marks a dissolved group and dissolveQuestion() names it", () => {
  assert.equal(chatLabel({ ...team, dissolved: true }, state).sub, "Group · 2 members · dissolved");
  assert.equal(chatLabel(team, state).sub, "Group · 2 members");
  assert.match(dissolveQuestion(team), /^Dissolve "Team"\? .*cannot be undone\.$/);
  assert.match(dissolveQuestion({ ...team, name: "" }), /^Dissolve "oc_team"\?/);
});
