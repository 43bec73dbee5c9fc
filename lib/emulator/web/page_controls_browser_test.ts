/**
 * The web chat page's moderation controls in headless Chromium against a real
 * emulator, with the bot played by the real node-sdk: in the Team group Alice
 * (its owner) recalls her message, removes the bot, talks without it, adds it
 * back and dissolves the group; the bot receives each event Feishu would push
 * (`im.message.recalled_v1`, `bot.deleted_v1`, `bot.added_v1`,
 * `im.chat.disbanded_v1`). Skipped (with the reason in its name) only when
 * Chromium is not installed. Set `FEISHU_WEB_CONTROLS_SCREENSHOT` to a path to
 * keep the final screenshot.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { sdkClient, startWs } from "../testdata/sdk_harness.ts";
import { DEFAULT_IDS, startEmulator } from "../mod.ts";
import { Browser, CHROMIUM_PATH, installed } from "./testdata/browser.ts";

const D = DEFAULT_IDS;
const TEAM_ITEM = `.chat-item[data-chat-id="${D.team}"]`;

Deno.test({
  name: installed()
    ? "page: Alice recalls her message, removes and re-adds the bot and dissolves Team in headless Chromium"
    : `page: SKIPPED, ${CHROMIUM_PATH} is absent (install the Debian package "chromium")`,
  ignore: !installed(),
  fn: async () => {
    await using emu = await startEmulator();
    const client = sdkClient(emu);
    const record = () => undefined;
    await using ws = startWs(emu, {
      "im.message.receive_v1": record,
      "im.message.recalled_v1": record,
      "im.chat.member.bot.added_v1": record,
      "im.chat.member.bot.deleted_v1": record,
      "im.chat.disbanded_v1": record,
    });
    await emu.ws.whenReady();
    const received = (type: string, chatId = D.team) =>
      emu.waitFor(() =>
        ws.seen.find((s) => s.type === type && (s.data as { chat_id?: string }).chat_id === chatId)
          ?.data as Record<string, unknown> | undefined
      );
    await client.im.v1.message.create({
      params: { receive_id_type: "chat_id" },
      data: {
        receive_id: D.team,
        msg_type: "text",
        content: JSON.stringify({ text: "Hi Team, ask me anything." }),
      },
    });
    emu.userSends({ user: D.bob.openId, chat: D.team, text: "Morning all" });

    const dir = await Deno.makeTempDir({ prefix: "feishu-web-controls-" });
    try {
      await using page = Browser.open(dir);
      await page.goto(emu.url);
      await page.waitFor("body[data-ready=true]");
      await page.select("#user-select", D.alice.openId);
      await page.click(TEAM_ITEM);
      await page.waitFor("#chat-title", "Team");

      // Recall: offered on her own message only; the bot is told.
      await page.fill("#composer-input", "Deploy to prod at 5?? typo");
      await page.click("#send");
      await page.waitFor(".msg.mine .text", "typo");
      assert.equal(await page.count(".msg:not(.mine) button[data-act=recall]"), 0);
      await page.hover(".msg.mine", "typo");
      await page.click(".msg.mine button[data-act=recall]");
      await page.waitFor(".msg.mine .recalled", "This message was recalled");
      const mine = emu.messages(D.team).find((m) => m.sender.id === D.alice.openId);
      assert.equal(mine?.deleted, true);
      const recalled = await received("im.message.recalled_v1");
      assert.equal(recalled.message_id, mine?.messageId);
      assert.equal(recalled.recall_type, "message_owner");

      // Remove the bot: the notice shows, the toggle flips, people still talk.
      await page.click("#chat-controls button[data-control=bot-remove]", "Remove bot");
      await page.waitFor("#banner", `${D.botName} is not in this group`);
      await page.waitFor("#chat-controls button[data-control=bot-add]", "Add bot");
      const removed = await received("im.chat.member.bot.deleted_v1");
      assert.equal((removed.operator_id as { open_id: string }).open_id, D.alice.openId);
      // Nobody can @-mention a bot that is not in the group.
      assert.notEqual(await page.attr("#mention-toggle", "hidden"), null);
      const pushed = emu.events({ type: "im.message.receive_v1" }).length;
      await page.fill("#composer-input", "The bot cannot hear this");
      await page.click("#send");
      await page.waitFor(".msg.mine .text", "The bot cannot hear this");
      assert.equal(await page.count({ selector: ".msg.mine", hasText: "@" + D.botName }), 0);
      assert.equal(emu.events({ type: "im.message.receive_v1" }).length, pushed);

      // Add it back: the notice goes.
      await page.click("#chat-controls button[data-control=bot-add]");
      await page.waitFor("#chat-controls button[data-control=bot-remove]");
      assert.notEqual(await page.attr("#banner", "hidden"), null);
      await received("im.chat.member.bot.added_v1");

      // Dissolve, accepting the confirm: banner, closed composer, no controls or actions.
      await page.acceptNextDialog();
      await page.click("#chat-controls button[data-control=dissolve]", "Dissolve group");
      await page.waitFor("#banner", "This group was dissolved");
      assert.notEqual(await page.attr("#composer-input", "disabled"), null);
      assert.notEqual(await page.attr("#send", "disabled"), null);
      assert.equal(await page.count("#chat-controls button"), 0);
      assert.equal(await page.count("#timeline .msg-actions"), 0);
      await page.waitFor(`${TEAM_ITEM} .chat-sub`, "dissolved");
      const disbanded = await received("im.chat.disbanded_v1");
      assert.equal((disbanded.operator_id as { open_id: string }).open_id, D.alice.openId);
      assert.notEqual(emu.world.chats.get(D.team)?.dissolvedAt, undefined);

      const shot = join(dir, "controls.png");
      await page.screenshot(shot);
      const keep = Deno.env.get("FEISHU_WEB_CONTROLS_SCREENSHOT");
      if (keep) await Deno.copyFile(shot, keep);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
    assert.deepEqual(emu.errors(), []);
  },
});
