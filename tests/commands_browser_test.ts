/**
 * Local commands through the whole loop, typed and clicked by a person in
 * the emulator's web page (headless Chromium, Debian's `/usr/bin/chromium`):
 * the real server over stdio with a seeded demo agent as its workdir, the
 * emulator in-process. `/kanban` written in Alice's DM on the page is
 * answered by the "Demo Agent · Kanban" control card; clicking its layer buttons
 * on the page redraws that same bubble with the layer (Runtime, then Network), adds no message, and never wakes the
 * agent. Screenshots of the page go to `<repo>/.work/artifacts/` (ignored by
 * git). Skipped only when Chromium is absent.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { DEFAULT_IDS as D, type Emulator, startEmulator } from "../lib/emulator/mod.ts";
import { Browser, CHROMIUM_PATH, installed } from "../lib/emulator/web/testdata/browser.ts";
import { seedDemoAgent } from "../commands/mod.ts";
import { bridgeConfig, startBridge } from "./_inbound.ts";
import { REPO } from "./_server.ts";

/** Where the screenshots go (`.work/` is ignored by git and excluded by deno.json). */
const ARTIFACTS = join(REPO, ".work", "artifacts");

/** The name of a browser test, saying so when it cannot run. */
function named(what: string): string {
  return installed()
    ? what
    : `${what}: SKIPPED, ${CHROMIUM_PATH} is absent (install the Debian package "chromium")`;
}

/** The page's bubble of one message. */
const bubble = (messageId: string) => `.msg[data-message-id="${messageId}"]`;

/** The emulator's interactive messages in a chat. */
const cards = (emu: Emulator, chatId: string) =>
  emu.messages(chatId).filter((m) => m.msgType === "interactive");

/** Saves a screenshot of the page and checks it is a PNG; returns its path. */
async function shoot(page: Browser, name: string): Promise<string> {
  await Deno.mkdir(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, name);
  await page.screenshot(path);
  const png = await Deno.readFile(path);
  assert.deepEqual([...png.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47], `${path} is a PNG`);
  return path;
}

Deno.test({
  name: named(
    "/kanban written on the page shows the Kanban control card; clicking 3 · Runtime and 6 · Network on the page redraws that same card with the layer, adds no message and never wakes the agent",
  ),
  ignore: !installed(),
  fn: async () => {
    const parent = await Deno.makeTempDir({ prefix: "feishu-commands-browser-" });
    const workdir = join(parent, "scribe");
    await seedDemoAgent(workdir, { sibling: "scout" });
    await using emu = await startEmulator();
    const bridge = await startBridge({
      workdir,
      config: bridgeConfig(emu.url, { account: { owners: [D.alice.openId] } }),
    });
    const profile = await Deno.makeTempDir({ prefix: "feishu-commands-browser-profile-" });
    try {
      await emu.ws.whenReady();
      await using page = Browser.open(profile);
      await page.goto(emu.url);
      await page.waitFor("body[data-ready=true]");
      await page.select("#user-select", D.alice.openId);
      await page.click(`.chat-item[data-chat-id="${D.aliceP2p}"]`);
      await page.waitFor(`.chat-item.active[data-chat-id="${D.aliceP2p}"]`);

      // Typed in the page's composer, as Alice would.
      await page.fill("#composer-input", "/kanban");
      await page.click("#send");
      await page.waitFor(".msg.mine .text", "/kanban");
      const cmd = await emu.waitForMessage((m) =>
        m.chatId === D.aliceP2p && m.sender.type === "user" && m.content.includes("/kanban")
      );
      const answer = await emu.waitForMessage((m) =>
        m.chatId === D.aliceP2p && m.sender.type === "app" && m.parentId === cmd.messageId
      );
      assert.equal(answer.msgType, "interactive");
      const at = bubble(answer.messageId);

      // The control card renders on the page: its header, the overview, and the layer buttons.
      await page.waitFor(`${at} .card-title`, "Demo Agent · Kanban");
      await page.waitFor(`${at} .card-md`, "Demo Agent");
      for (
        const label of [
          "1 · Identity",
          "2 · Model",
          "3 · Runtime",
          "4 · Mind",
          "5 · Tokens",
          "6 · Network",
          "7 · Addons",
          "All layers",
          "Controls",
        ]
      ) {
        await page.waitFor(`${at} button.card-btn`, label);
      }
      const value = await page.attr(`${at} button.card-btn >> text="3 · Runtime"`, "data-value");
      assert.deepEqual(JSON.parse(value ?? "null"), {
        lingtai_control: { version: 1, command: "kanban", argument: "3" },
      });
      const bubblesBefore = await page.count(".bubble-interactive");
      const messagesBefore = emu.messages(D.aliceP2p).length;
      const cardsBefore = cards(emu, D.aliceP2p).length;
      assert.equal(bubblesBefore, 1, "one card on the page");
      assert.equal(cardsBefore, 1, "one card in the chat");
      const overview = await shoot(page, "commands_kanban_overview.png");

      // 3 · Runtime: the same bubble now shows the runtime layer.
      await page.click(`${at} button.card-btn`, "3 · Runtime");
      await page.waitFor(`${at} .card-md strong`, "3 · Runtime");
      const runtime = await page.innerText(`${at} .card-md`);
      assert.match(runtime, /State: active/);
      assert.match(runtime, /Uptime: 2h5m/);
      assert.match(runtime, /Context: 45\.2K\/200\.0K \(22\.6%\)/);
      assert.equal(await page.count(".bubble-interactive"), bubblesBefore, "redrawn in place");

      // 6 · Network: the fleet of the folder, the workdir's agent and its sibling.
      await page.click(`${at} button.card-btn`, "6 · Network");
      await page.waitFor(`${at} .card-md strong`, "6 · Network");
      await page.waitFor(`${at} .card-md li`, "scribe: active · claude-sonnet-4 · molts=2");
      const network = await page.innerText(`${at} .card-md`);
      assert.doesNotMatch(network, /State: /, "the runtime layer was replaced");
      const clicked = await shoot(page, "commands_kanban_network.png");
      // deno-lint-ignore no-console
      console.error(`screenshots: ${overview} ${clicked}`);

      // The clicks changed the card, not the chat.
      assert.equal(await page.count(".bubble-interactive"), bubblesBefore);
      assert.equal(await page.count(".msg.from-bot"), 1);
      assert.equal(emu.messages(D.aliceP2p).length, messagesBefore);
      assert.equal(cards(emu, D.aliceP2p).length, cardsBefore);
      const stored = emu.messages(D.aliceP2p).find((m) => m.messageId === answer.messageId)!;
      assert.match(stored.content, /6 · Network/);

      // The command and the clicks never woke the agent nor became records.
      assert.equal(bridge.channel.items.length, 0, "no channel push");
      const records = await bridge.records(D.aliceP2p);
      assert.ok(!records.some((r) => r.feishu_message_id === cmd.messageId), "no record");
      assert.deepEqual(records.filter((r) => r.message_type === "card_action"), []);
      assert.deepEqual(emu.errors(), []);

      // The server runs confined to its workdir: the agent itself is listed; a sibling
      // folder outside the workdir is not readable to it and is left out.
      assert.match(network, /scribe: active · claude-sonnet-4 · molts=2/);
    } finally {
      await bridge.close();
      await Deno.remove(profile, { recursive: true });
      await Deno.remove(parent, { recursive: true });
    }
  },
});
