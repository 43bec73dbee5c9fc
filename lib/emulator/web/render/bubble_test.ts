import assert from "node:assert/strict";
import { renderBubble, renderEntry, toastHtml } from "./bubble.ts";
import { layoutTimeline } from "./timeline.ts";
import type { PageMessage, PageState } from "./types.ts";

const state: PageState = {
  app: { app_id: "cli_1", bot_open_id: "ou_bot", bot_name: "EmuBot" },
  users: [{ open_id: "ou_alice", name: "Alice" }, { open_id: "ou_bob", name: "Bob" }],
  chats: [],
};

function msg(id: string, extra: Partial<PageMessage> = {}): PageMessage {
  return {
    message_id: id,
    chat_id: "oc",
    thread_id: null,
    root_id: null,
    parent_id: null,
    msg_type: "text",
    content: { text: `text ${id}` },
    sender: { type: "user", id: "ou_alice", name: "Alice" },
    create_time: Date.UTC(2026, 0, 2, 9, 5),
    update_time: 0,
    deleted: false,
    updated: false,
    edit_count: 0,
    reactions: [],
    mentions: [],
    ...extra,
  };
}

const bot = { type: "app", id: "cli_1", name: "EmuBot" };

Deno.test("layoutTimeline() puts thread replies under their root and keeps plain replies in the flow", () => {
  const items = [
    msg("a"),
    msg("b", { thread_id: "t1" }),
    msg("c", { parent_id: "a", root_id: "a" }),
    msg("d", { thread_id: "t1", root_id: "b", parent_id: "b" }),
    msg("e", { thread_id: "t1", root_id: "b", parent_id: "d" }),
    msg("f", { thread_id: "t9", root_id: "zz", parent_id: "zz" }),
  ];
  const entries = layoutTimeline(items, "group");
  assert.deepEqual(
    entries.map((e) => [e.message.message_id, e.replies.map((r) => r.message_id), e.threaded]),
    [["a", [], false], ["b", ["d", "e"], true], ["c", [], false], ["f", [], false]],
  );
});

Deno.test("layoutTimeline() makes every root a topic in a topic group", () => {
  const items = [
    msg("a", { thread_id: "t1" }),
    msg("b", { thread_id: "t2" }),
    msg("c", { thread_id: "t1", root_id: "a", parent_id: "a" }),
  ];
  const entries = layoutTimeline(items, "topic");
  assert.deepEqual(
    entries.map((e) => [e.message.message_id, e.replies.length, e.threaded]),
    [["a", 1, true], ["b", 0, true]],
  );
});

Deno.test("renderBubble() shows sender, bot tag, UTC time, edited mark and the quoted parent", () => {
  const parent = msg("p", { mentions: [{ key: "@_user_1", id: "ou_bot", name: "EmuBot" }] });
  (parent.content as { text: string }).text = "@_user_1 deploy?";
  const reply = msg("r", {
    sender: bot,
    parent_id: "p",
    root_id: "p",
    edit_count: 2,
    updated: true,
  });
  const html = renderBubble(reply, { state, byId: new Map([["p", parent]]), viewer: "ou_alice" });
  assert.ok(html.startsWith('<div class="msg from-bot" data-message-id="r">'));
  assert.ok(html.includes('<div class="avatar bot">E</div>'));
  assert.ok(html.includes('<span class="bot-tag">Bot</span><time>09:05</time>'));
  assert.ok(html.includes('<span class="edited">edited</span>'));
  assert.ok(
    html.includes(
      '<div class="quote" data-parent-id="p"><span class="quote-who">Alice:</span> @EmuBot deploy?</div>',
    ),
  );
});

Deno.test("renderBubble() does not mark a card replaced by its callback as edited", () => {
  const card = msg("c", { sender: bot, msg_type: "interactive", content: {}, updated: true });
  assert.ok(!renderBubble(card, { byId: new Map() }).includes("edited"));
});

Deno.test("renderBubble() marks the viewer's own messages and their reactions", () => {
  const m = msg("m", {
    reactions: [
      { reaction_id: "r1", emoji_type: "OK", operator_type: "app", operator_id: "cli_1" },
      { reaction_id: "r2", emoji_type: "Typing", operator_type: "app", operator_id: "cli_1" },
      { reaction_id: "r3", emoji_type: "THUMBSUP", operator_type: "user", operator_id: "ou_alice" },
      { reaction_id: "r4", emoji_type: "THUMBSUP", operator_type: "user", operator_id: "ou_bob" },
      { reaction_id: "r5", emoji_type: "Weird", operator_type: "user", operator_id: "ou_bob" },
    ],
  });
  const html = renderBubble(m, { state, byId: new Map(), viewer: "ou_alice" });
  assert.ok(html.startsWith('<div class="msg from-user mine"'));
  const chips = [
    ...html.matchAll(/<button type="button" class="reaction[^"]*"[^>]*>.*?<\/button>/g),
  ]
    .map((x) => x[0]);
  assert.equal(chips.length, 4);
  assert.ok(chips[0]?.includes('<span class="reaction-emoji">👌</span>'));
  assert.ok(chips[0]?.includes('<span class="reaction-who">EmuBot</span>'));
  assert.ok(chips[1]?.includes('<span class="reaction-type">Typing</span>'));
  assert.ok(chips[2]?.startsWith('<button type="button" class="reaction mine"'));
  assert.ok(chips[2]?.includes('<span class="reaction-who">Alice, Bob</span>'));
  assert.ok(chips[3]?.includes('<span class="reaction-emoji">Weird</span>'));
});

Deno.test("renderBubble() shows a recalled message without its content or actions", () => {
  const html = renderBubble(msg("x", { deleted: true }), { byId: new Map() });
  assert.ok(html.includes('<div class="recalled">This message was recalled</div>'));
  assert.ok(!html.includes("text x"));
  assert.ok(!html.includes("msg-actions"));
});

Deno.test("renderBubble() offers Recall only on the viewer's own messages", () => {
  const recall =
    '<button type="button" data-act="recall" title="Recall this message">Recall</button>';
  const mine = msg("m");
  assert.ok(renderBubble(mine, { state, byId: new Map(), viewer: "ou_alice" }).includes(recall));
  assert.ok(!renderBubble(mine, { state, byId: new Map(), viewer: "ou_bob" }).includes(recall));
  assert.ok(!renderBubble(mine, { state, byId: new Map() }).includes(recall));
  // A bot whose app id happens to equal the viewer string is still no person.
  const fromBot = msg("b", { sender: { ...bot, id: "ou_alice" } });
  assert.ok(
    !renderBubble(fromBot, { state, byId: new Map(), viewer: "ou_alice" }).includes(recall),
  );
});

Deno.test("renderBubble() in a read-only (dissolved) chat shows no actions", () => {
  const html = renderBubble(msg("m"), {
    state,
    byId: new Map(),
    viewer: "ou_alice",
    readOnly: true,
  });
  assert.ok(html.includes("text m"));
  assert.ok(!html.includes("msg-actions"));
});

Deno.test("renderBubble() shows the last card toast under the card", () => {
  const card = msg("c", {
    msg_type: "interactive",
    content: { elements: [] },
    toast: { type: "success", content: "Saved" },
  });
  assert.ok(
    renderBubble(card, { byId: new Map() }).includes(
      '<div class="card-toast toast-success"><span class="toast-icon" title="Success">✓</span>' +
        " Saved</div>",
    ),
  );
  assert.equal(
    toastHtml({ type: "bogus", i18n: { en_us: "Hi" } }),
    '<div class="card-toast toast-info"><span class="toast-icon" title="Info">i</span> Hi</div>',
  );
  assert.match(
    toastHtml({ type: "error", content: "The card callback timed out (code: 200341)" }),
    /^<div class="card-toast toast-error"><span class="toast-icon" title="Error">✕<\/span> /,
  );
});

Deno.test("renderEntry() wraps a thread with its reply count and a reply button", () => {
  const root = msg("a", { thread_id: "t" });
  const reply = msg("b", { thread_id: "t", root_id: "a", parent_id: "a", sender: bot });
  const html = renderEntry(
    { message: root, replies: [reply], threaded: true },
    { byId: new Map([["a", root], ["b", reply]]), mode: "group" },
  );
  assert.ok(html.startsWith('<section class="entry threaded" data-entry-id="a">'));
  assert.ok(html.includes('<div class="thread-count">1 reply</div>'));
  assert.ok(!html.includes('class="quote"'), "a reply to the root quotes nothing");
  assert.ok(html.includes('data-act="thread" data-message-id="a">Reply in thread</button>'));
});
