/**
 * The web chat page in headless Chromium (Debian's `/usr/bin/chromium`,
 * driven by playwright-core) against a real emulator, with the bot played by
 * the real node-sdk: Alice sends a message in her DM, the bot answers with a
 * markdown post and a card, she clicks the card's button, the bot's toast
 * shows and its replacement card re-renders. Skipped (with the reason in its
 * name) only when Chromium is not installed. The browser runs behind
 * `testdata/browser.ts` (a child process; see `testdata/browser_driver.ts` for why).
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { sdkClient, startWs } from "../testdata/sdk_harness.ts";
import { DEFAULT_IDS, startEmulator } from "../mod.ts";
import { Browser, CHROMIUM_PATH, installed } from "./testdata/browser.ts";

const D = DEFAULT_IDS;
const REPORT_MD = [
  "## Build report",
  "",
  "| step | status |",
  "| --- | :---: |",
  "| lint | **passed** |",
  "| test | ~~flaky~~ fixed |",
  "",
  "- outer item",
  "  - inner item",
  "",
  "```ts",
  "const ok = 1 < 2;",
  "```",
  "",
  '<script>alert("x")</script>',
].join("\n");

const ASK_CARD = {
  schema: "2.0",
  config: { update_multi: true },
  header: {
    title: { tag: "plain_text", content: "Deploy v1.2?" },
    subtitle: { tag: "plain_text", content: "production" },
    template: "orange",
  },
  body: {
    elements: [
      { tag: "markdown", content: "Ship **v1.2** to production?" },
      {
        tag: "button",
        text: { tag: "plain_text", content: "Approve" },
        type: "primary",
        behaviors: [{ type: "callback", value: { action: "approve" } }],
      },
    ],
  },
};

const DONE_CARD = {
  schema: "2.0",
  header: { title: { tag: "plain_text", content: "Deployed v1.2" }, template: "green" },
  body: {
    elements: [{ tag: "markdown", content: `✅ Approved by <at id="${D.alice.openId}"></at>` }],
  },
};

const PNG_SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];

Deno.test({
  name: installed()
    ? "page: Alice chats with a node-sdk bot in headless Chromium, clicks its card and sees the toast and the new card"
    : `page: SKIPPED, ${CHROMIUM_PATH} is absent (install the Debian package "chromium")`,
  ignore: !installed(),
  fn: async () => {
    await using emu = await startEmulator();
    const client = sdkClient(emu);
    const replies: Promise<unknown>[] = [];
    const answer = async (messageId: string) => {
      await client.im.v1.messageReaction.create({
        path: { message_id: messageId },
        data: { reaction_type: { emoji_type: "OK" } },
      });
      await client.im.v1.message.reply({
        path: { message_id: messageId },
        data: {
          msg_type: "post",
          content: JSON.stringify({
            zh_cn: { title: "", content: [[{ tag: "md", text: REPORT_MD }]] },
          }),
        },
      });
      await client.im.v1.message.reply({
        path: { message_id: messageId },
        data: { msg_type: "interactive", content: JSON.stringify(ASK_CARD) },
      });
    };
    await using ws = startWs(emu, {
      "im.message.receive_v1": (data) => {
        const message = data.message as { message_id: string };
        replies.push(answer(message.message_id));
        return undefined;
      },
      "card.action.trigger": () => ({
        toast: { type: "success", content: "Approved by the bot" },
        card: { type: "raw", data: DONE_CARD },
      }),
    });
    await emu.ws.whenReady();

    const dir = await Deno.makeTempDir({ prefix: "feishu-web-" });
    try {
      await using page = Browser.open(dir);
      const blank = join(dir, "blank.png");
      await page.screenshot(blank);

      await page.goto(emu.url);
      await page.waitFor("body[data-ready=true]");
      await page.select("#user-select", D.alice.openId);
      await page.click(`.chat-item[data-chat-id="${D.aliceP2p}"]`);
      await page.waitFor("#chat-title", D.botName);
      await page.fill("#composer-input", "Please ship v1.2");
      await page.click("#send");

      await page.waitFor(".msg.mine .text", "Please ship v1.2");
      await page.waitFor(".msg.mine .reaction", D.botName);
      await page.waitFor(".bubble-post h2", "Build report");
      assert.equal(await page.text(".bubble-post table td"), "lint");
      assert.equal(await page.text(".bubble-post td strong"), "passed");
      assert.equal(await page.text(".bubble-post td del"), "flaky");
      assert.equal(await page.text(".bubble-post ul ul li"), "inner item");
      assert.equal(await page.text(".bubble-post .code-lang"), "ts");
      assert.equal(await page.text(".bubble-post pre code"), "const ok = 1 < 2;");
      assert.match(await page.innerText(".bubble-post"), /<script>alert\("x"\)<\/script>/);
      assert.equal(await page.count("#timeline script"), 0);

      await page.waitFor(".bubble-interactive .card-title", "Deploy v1.2?");
      assert.match(
        await page.attr(".bubble-interactive .card-header", "class") ?? "",
        /tpl-orange/,
      );
      await page.click(".bubble-interactive button.card-btn.btn-primary", "Approve");

      await page.waitFor("#toast", "Approved by the bot");
      await page.waitFor(".bubble-interactive .card-title", "Deployed v1.2");
      await page.waitFor(".bubble-interactive .mention", "@Alice");
      assert.equal(await page.count(".bubble-interactive button.card-btn"), 0);
      await page.waitFor(".card-toast", "Approved by the bot");
      const trigger = ws.seen.find((s) => s.type === "card.action.trigger")?.data as {
        action?: { value?: unknown };
      };
      assert.deepEqual(trigger?.action?.value, { action: "approve" });

      const shot = join(dir, "chat.png");
      await page.screenshot(shot);
      const png = await Deno.readFile(shot);
      assert.deepEqual([...png.subarray(0, 8)], PNG_SIGNATURE);
      const blankSize = (await Deno.stat(blank)).size;
      assert.ok(
        png.length > blankSize * 4 && png.length > 20_000,
        `Expected the chat screenshot to be well above a blank page's ${blankSize} bytes but found ${png.length}`,
      );
      const keep = Deno.env.get("FEISHU_WEB_SCREENSHOT");
      if (keep) await Deno.copyFile(shot, keep);
    } finally {
      await Promise.allSettled(replies);
      await Deno.remove(dir, { recursive: true });
    }
    assert.deepEqual(emu.errors(), []);
  },
});
