/**
 * The web chat page in groups, in headless Chromium against a real emulator,
 * with the bot played by the real node-sdk: Bob @-mentions the bot in the
 * Team group and gets a thread reply and the Task Card; the bot edits its
 * reply and recalls the card; Bob reacts from the page and uploads an image;
 * in the Topics group he opens a topic, gets an answer inside it and replies
 * to the topic. Skipped (with the reason in its name) only when Chromium is
 * not installed.
 */

import assert from "node:assert/strict";
import { sdkClient, startWs } from "../testdata/sdk_harness.ts";
import { DEFAULT_IDS, startEmulator } from "../mod.ts";
import { Browser, CHROMIUM_PATH, installed } from "./testdata/browser.ts";

const D = DEFAULT_IDS;

const TASK_CARD = {
  schema: "2.0",
  config: { update_multi: true },
  header: { title: { tag: "plain_text", content: "LingTai Task Card" }, template: "blue" },
  body: {
    elements: [{
      tag: "markdown",
      content: [
        "📋 ACTIVITIES",
        "──────────",
        "• public response",
        "• bash.run: build (0s, ???) · 12:00:00 UTC+00",
        "",
        "Don't reply to this Task Card. Use /taskcard on|off to toggle; /taskcard N sets normal rows (1-10, current: 1).",
        "Last Updated: 02:30:00 UTC+08",
      ].join("\n"),
    }],
  },
};

/** A 1×1 PNG. */
const PNG = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==",
  ),
  (c) => c.charCodeAt(0),
);

interface Received {
  message_id: string;
  chat_id: string;
  root_id?: string;
  message_type: string;
  mentions?: { name: string }[];
}

Deno.test({
  name: installed()
    ? "page: Bob uses threads, the Task Card, edits, recalls, reactions, uploads and topics in headless Chromium"
    : `page: SKIPPED, ${CHROMIUM_PATH} is absent (install the Debian package "chromium")`,
  ignore: !installed(),
  fn: async () => {
    await using emu = await startEmulator();
    const client = sdkClient(emu);
    const work: Promise<unknown>[] = [];
    const text = (t: string) => JSON.stringify({ text: t });
    const answer = async (m: Received) => {
      await client.im.v1.messageReaction.create({
        path: { message_id: m.message_id },
        data: { reaction_type: { emoji_type: "Typing" } },
      });
      if (m.chat_id === D.team) {
        await client.im.v1.message.reply({
          path: { message_id: m.message_id },
          data: {
            msg_type: "text",
            content: text(`<at user_id="${D.bob.openId}">Bob</at> on it`),
            reply_in_thread: true,
          },
        });
        await client.im.v1.message.create({
          params: { receive_id_type: "chat_id" },
          data: { receive_id: D.team, msg_type: "interactive", content: JSON.stringify(TASK_CARD) },
        });
      } else {
        await client.im.v1.message.reply({
          path: { message_id: m.message_id },
          data: { msg_type: "text", content: text("topic answer") },
        });
      }
    };
    await using ws = startWs(emu, {
      "im.message.receive_v1": (data) => {
        const m = data.message as Received;
        if (m.message_type === "text" && !m.root_id) work.push(answer(m));
        return undefined;
      },
    });
    await emu.ws.whenReady();

    const dir = await Deno.makeTempDir({ prefix: "feishu-web-" });
    try {
      await using page = Browser.open(dir);
      await page.goto(emu.url);
      await page.waitFor("body[data-ready=true]");
      await page.select("#user-select", D.bob.openId);
      await page.click(`.chat-item[data-chat-id="${D.team}"]`);
      await page.waitFor("#chat-title", "Team");
      await page.waitFor("#mention-toggle:not([hidden])", `@${D.botName}`);
      await page.fill("#composer-input", "status please");
      await page.click("#send");

      const thread = ".entry.threaded .thread .msg.from-bot";
      await page.waitFor(`${thread} .mention`, "@Bob");
      const event = ws.seen.find((s) => s.type === "im.message.receive_v1")?.data
        .message as Received;
      assert.deepEqual(event.mentions?.map((m) => m.name), [D.botName]);
      await page.waitFor(".msg.mine .reaction", "Typing");

      await page.waitFor(".bubble-interactive .card-title", "LingTai Task Card");
      assert.match(await page.attr(".bubble-interactive .card-header", "class") ?? "", /tpl-blue/);
      const frame = await page.innerText(".bubble-interactive .card-md");
      assert.match(frame, /^📋 ACTIVITIES\n──────────\n• public response\n• bash\.run: build/);
      assert.match(frame, /current: 1\)\.\nLast Updated: 02:30:00 UTC\+08$/);

      const reply = emu.lastSent(D.team);
      const answerMsg = emu.messages(D.team).find((m) =>
        m.msgType === "text" && m.sender.type === "app"
      );
      assert.ok(reply && answerMsg);
      await client.im.v1.message.update({
        path: { message_id: answerMsg.messageId },
        data: { msg_type: "text", content: text("done, see the card") },
      });
      await page.waitFor(`${thread} .edited`, "edited");
      await page.waitFor(`${thread} .text`, "done, see the card");
      await client.im.v1.message.delete({ path: { message_id: reply.messageId } });
      await page.waitFor(".recalled", "This message was recalled");
      assert.equal(await page.count(".bubble-interactive"), 0);

      await page.hover(thread);
      await page.click(`${thread} .picker button[data-emoji="THUMBSUP"]`);
      await page.waitFor(`${thread} .reaction.mine`, "Bob");
      assert.ok(
        emu.reactions(answerMsg.messageId).some((r) =>
          r.emojiType === "THUMBSUP" && r.operatorId === D.bob.openId
        ),
      );

      await page.setFiles("#file-input", { name: "dot.png", mimeType: "image/png", bytes: PNG });
      await page.waitFor(".msg.mine .msg-img img");
      const image = emu.messages(D.team).find((m) => m.msgType === "image");
      assert.equal(image?.sender.id, D.bob.openId);
      const src = await page.attr(".msg.mine .msg-img img", "src");
      const served = await fetch(new URL(src ?? "", emu.url));
      assert.deepEqual(new Uint8Array(await served.arrayBuffer()), PNG);

      await page.click(`.chat-item[data-chat-id="${D.topics}"]`);
      await page.waitFor("#chat-title", "Topics");
      await page.fill("#composer-input", "new topic");
      await page.click("#send");
      await page.waitFor(".entry.topic .thread .msg.from-bot .text", "topic answer");
      await page.click(".entry.topic .thread-reply", "Reply to topic");
      await page.waitFor("#reply-text", "Replying in thread to Bob: @EmuBot new topic");
      await page.fill("#composer-input", "follow-up");
      await page.click("#send");
      await page.waitFor(".entry.topic .thread .msg.mine .text", "follow-up");
      const [root, ...rest] = emu.messages(D.topics);
      const follow = rest.find((m) => m.content.includes("follow-up"));
      assert.equal(follow?.threadId, root?.threadId);
      assert.equal(follow?.rootId, root?.messageId);

      const keep = Deno.env.get("FEISHU_WEB_SCREENSHOT_TOPICS");
      if (keep) await page.screenshot(keep);
    } finally {
      await Promise.allSettled(work);
      await Deno.remove(dir, { recursive: true });
    }
    assert.deepEqual(emu.errors(), []);
  },
});
