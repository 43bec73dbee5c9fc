/**
 * Cards through the whole loop, clicked by a person in the emulator's web
 * page (headless Chromium, Debian's `/usr/bin/chromium`): the real server
 * over stdio with the real MCP client, the emulator in-process. A click on a
 * business card shows the server's toast on the page, reaches the agent as a
 * `card_action` push and record, and the agent's edit redraws the card on the
 * page; an approval card for a Claude Code permission prompt shows in the
 * conversation that woke the agent, and clicking Allow on the page sends the
 * client one verdict and turns the card into the verdict; in `deno task
 * sandbox` the demo agent's card changes when its button is clicked on the
 * page. Skipped only when Chromium is absent.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { z } from "zod";
import { DEFAULT_IDS as D, type Emulator, startEmulator } from "../lib/emulator/mod.ts";
import { Browser, CHROMIUM_PATH, installed } from "../lib/emulator/web/testdata/browser.ts";
import { bridgeConfig, startBridge, Tally } from "./_inbound.ts";
import { sandboxArgs, startSandbox } from "./_sandbox.ts";
import { REPO } from "./_server.ts";

type Rec = Record<string, unknown>;
const text = (content: string) => ({ tag: "plain_text", content });

/** The name of a browser test, saying so when it cannot run. */
function named(what: string): string {
  return installed()
    ? what
    : `${what}: SKIPPED, ${CHROMIUM_PATH} is absent (install the Debian package "chromium")`;
}

/** A schema-2.0 card: a title, a line, and at most one callback button. */
function card(title: string, line: string, button?: { label: string; value: Rec }): Rec {
  const elements: Rec[] = [{ tag: "markdown", content: line }];
  if (button) {
    elements.push({
      tag: "button",
      text: text(button.label),
      type: "primary",
      behaviors: [{ type: "callback", value: button.value }],
    });
  }
  return {
    schema: "2.0",
    config: { update_multi: true },
    header: { title: text(title), template: "blue" },
    body: { elements },
  };
}

/** Opens the page in a fresh browser profile as `user`, in `chat`; closes it afterwards. */
async function withPage(
  url: string,
  user: string,
  chat: string,
  body: (page: Browser) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "feishu-cards-browser-" });
  try {
    await using page = Browser.open(dir);
    await page.goto(url);
    await page.waitFor("body[data-ready=true]");
    await page.select("#user-select", user);
    await page.click(`.chat-item[data-chat-id="${chat}"]`);
    await page.waitFor(`.chat-item.active[data-chat-id="${chat}"]`);
    await body(page);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The page's bubble of one message. */
const bubble = (messageId: string) => `.msg[data-message-id="${messageId}"]`;

Deno.test({
  name: named(
    "a button clicked on the page shows the server's toast, reaches the agent as a card_action push and record with its value, and the agent's edit redraws the card on the page",
  ),
  ignore: !installed(),
  fn: async () => {
    await using emu = await startEmulator();
    const bridge = await startBridge({ config: bridgeConfig(emu.url) });
    try {
      await emu.ws.whenReady();
      const value = { action: "deploy", target: "staging" };
      const sent = await bridge.call("send", {
        receive_id: D.aliceP2p,
        receive_id_type: "chat_id",
        content: {
          type: "card",
          card: card("Deploy v4?", "Ship **v4** to staging?", { label: "Deploy", value }),
        },
      });
      assert.equal(sent.status, "sent", JSON.stringify(sent));
      const cardId = emu.lastSent(D.aliceP2p)!.messageId;

      await withPage(emu.url, D.alice.openId, D.aliceP2p, async (page) => {
        await page.waitFor(`${bubble(cardId)} .card-title`, "Deploy v4?");
        await page.click(`${bubble(cardId)} button.card-btn`, "Deploy");
        // The click's synchronous answer pops up, and stays as a line under the card.
        await page.waitFor("#toast[data-type=info]", "Sent to the agent.");
        await page.waitFor(`${bubble(cardId)} .card-toast.toast-info`, "Sent to the agent.");

        const [push] = await bridge.channel.atLeast(1);
        assert.equal(push!.meta.message_type, "card_action");
        assert.equal(push!.meta.chat_id, D.aliceP2p);
        assert.equal(push!.meta.open_id, D.alice.openId);
        assert.equal(push!.meta.source_message_id, `main:${D.aliceP2p}:${cardId}`);
        // The push's text names the control and carries the clicked value.
        const shown = push!.content.match(/^\[card action: button\] (.*)$/s);
        assert.ok(shown, push!.content);
        assert.deepEqual(JSON.parse(shown[1]!), value);

        const records = (await bridge.records(D.aliceP2p)).filter((r) =>
          r.message_type === "card_action"
        );
        assert.equal(records.length, 1, JSON.stringify(records));
        const record = records[0]!;
        assert.equal(record.id, push!.meta.message_id);
        assert.equal(record.from_open_id, D.alice.openId);
        assert.equal(record.source_message_id, cardId);
        assert.deepEqual((record.card_action as { action: Rec }).action.value, value);

        // The agent answers by editing the card the push names; the page redraws it in place.
        const edited = await bridge.call("edit", {
          message_id: push!.meta.source_message_id,
          content: { type: "card", card: card("Deployed v4", "v4 is **live** on staging") },
        });
        assert.equal(edited.status, "edited", JSON.stringify(edited));
        await page.waitFor(`${bubble(cardId)} .card-title`, "Deployed v4");
        assert.match(await page.innerText(`${bubble(cardId)} .bubble-interactive`), /v4 is live/);
        assert.equal(await page.count(`${bubble(cardId)} button.card-btn`), 0);
        assert.equal(await page.count(".bubble-interactive"), 1, "the card changed in place");
      });
      assert.equal(bridge.channel.items.length, 1, "one click, one wake");
      assert.deepEqual(emu.errors(), []);
    } finally {
      await bridge.close();
    }
  },
});

const REQUEST = "notifications/claude/channel/permission_request";
const VERDICT = "notifications/claude/channel/permission";
const VerdictSchema = z.object({ request_id: z.string(), behavior: z.enum(["allow", "deny"]) });

/** Waits for the approval card of `requestId` in `chatId` (in the emulator's store). */
function approvalCard(emu: Emulator, chatId: string, requestId: string) {
  return emu.waitForMessage((m) =>
    m.chatId === chatId && m.msgType === "interactive" && m.content.includes(`request ${requestId}`)
  );
}

Deno.test({
  name: named(
    "Alice's message in the group woke the agent, so a permission prompt's approval card shows there on the page; her Allow click sends the client one allow verdict and turns the card into who allowed it",
  ),
  ignore: !installed(),
  fn: async () => {
    await using emu = await startEmulator();
    // Claude Code opens with the initialize handshake and names itself.
    const bridge = await startBridge({
      config: bridgeConfig(emu.url, { account: { allowed_users: [D.alice.openId] } }),
      era: "legacy",
      clientName: "claude-code",
    });
    const verdicts = new Tally<z.infer<typeof VerdictSchema>>();
    bridge.server.client.setNotificationHandler(
      VERDICT,
      { params: VerdictSchema },
      (params) => verdicts.push(params),
    );
    try {
      const caps = bridge.server.client.getServerCapabilities()?.experimental ?? {};
      assert.deepEqual(caps["claude/channel/permission"], {});
      await emu.ws.whenReady();

      await withPage(emu.url, D.alice.openId, D.team, async (page) => {
        // Written in the page: the group's @bot box is ticked, so the bot is mentioned.
        await page.fill("#composer-input", "please list the project files");
        await page.click("#send");
        await page.waitFor(".msg.mine .text", "please list the project files");
        const [wake] = await bridge.channel.atLeast(1);
        assert.equal(wake!.meta.chat_id, D.team);
        assert.equal(wake!.meta.open_id, D.alice.openId);

        await bridge.server.client.notification({
          method: REQUEST,
          params: {
            request_id: "pqrst",
            tool_name: "Bash",
            description: "List the files of the project",
            input_preview: '{"command":"ls -la"}',
          },
        } as never);
        // The card goes to the group that woke the agent, not to Alice's DM.
        const stored = await approvalCard(emu, D.team, "pqrst");
        const at = bubble(stored.messageId);
        await page.waitFor(`${at} .card-title`, "Permission request · Bash");
        assert.equal(await page.text(`${at} .card-subtitle`), "request pqrst");
        assert.match(await page.innerText(`${at} .bubble-interactive`), /ls -la/);
        await page.waitFor(`${at} button.card-btn`, "Deny");
        assert.equal(verdicts.items.length, 0, "no verdict before anyone answers");

        await page.click(`${at} button.card-btn`, "Allow");
        await page.waitFor("#toast[data-type=success]", "Allowed");
        await page.waitFor(`${at} .card-title`, "Allowed · Bash");
        await page.waitFor(`${at} .bubble-interactive`, "Allowed by Alice at");
        await page.waitFor(`${at} .card-toast.toast-success`, "Allowed");
        assert.equal(
          await page.count(`${at} button.card-btn`),
          0,
          "the answered card has no buttons",
        );
        assert.equal(
          await page.count(".bubble-interactive"),
          1,
          "the card was replaced in place",
        );
        assert.deepEqual(await verdicts.atLeast(1), [{ request_id: "pqrst", behavior: "allow" }]);
      });
      // The click was a vote: no record, no second wake, one verdict.
      const records = await bridge.records(D.team);
      assert.deepEqual(records.filter((r) => r.message_type === "card_action"), []);
      assert.equal(bridge.channel.items.length, 1);
      assert.equal(verdicts.items.length, 1);
      assert.equal(emu.messages(D.aliceP2p).length, 0, "nothing went to Alice's DM");
      assert.deepEqual(emu.errors(), []);
    } finally {
      await bridge.close();
    }
  },
});

Deno.test({
  name: named(
    "deno task sandbox: 'card' written on the page gets the demo agent's card, and clicking Approve on the page turns it into Approved with who chose",
  ),
  ignore: !installed(),
  fn: async () => {
    const workdir = await Deno.makeTempDir({ prefix: "feishu-sandbox-cards-" });
    const sandbox = await startSandbox(sandboxArgs(join(REPO, "main.ts"), workdir), { cwd: REPO });
    try {
      await withPage(sandbox.url, D.alice.openId, D.aliceP2p, async (page) => {
        await page.fill("#composer-input", "card");
        await page.click("#send");
        await page.waitFor(".msg.from-bot .card-title", "Pick one");
        await page.click(".msg.from-bot button.card-btn", "Approve");
        await page.waitFor("#toast[data-type=info]", "Sent to the agent.");
        await page.waitFor(".msg.from-bot .card-title", "Approved");
        // The chat also holds the demo agent's Task Card (blue header): leave it out.
        const cards = ".msg.from-bot .bubble-interactive:not(:has(.tpl-blue))";
        assert.match(await page.innerText(cards), /Alice chose approve/);
        assert.equal(await page.count(cards), 1);
        assert.equal(await page.count(".msg.from-bot button.card-btn"), 0);
      });
      assert.equal(await sandbox.stop("SIGINT"), true);
      assert.doesNotMatch(sandbox.log(), / ERROR /);
    } finally {
      await sandbox.stop("SIGKILL");
      await Deno.remove(workdir, { recursive: true });
    }
  },
});
