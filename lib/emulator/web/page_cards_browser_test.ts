/**
 * Card interactivity on the web page in headless Chromium (Debian's
 * `/usr/bin/chromium`) against a started emulator, with the bot played by
 * the real node-sdk: a menu outside a form calls back with `option`; a link
 * button opens its URL without a callback; a disabled button stays
 * disabled; with no card callback configured a click shows error 200340; a
 * callback the bot answers after the ACK timeout (driven by a
 * `ManualEmuClock`) shows error 200341 and changes nothing; a form submit
 * sends the input and menu by name as `form_value`, and the bot's warning
 * toast and replacement card show. Skipped only when Chromium is absent.
 */

import assert from "node:assert/strict";
import { sdkClient, startWs } from "../testdata/sdk_harness.ts";
import { DEFAULT_IDS, ManualEmuClock, startEmulator } from "../mod.ts";
import { Browser, CHROMIUM_PATH, installed } from "./testdata/browser.ts";

const D = DEFAULT_IDS;
const text = (content: string) => ({ tag: "plain_text", content });

function askCard(docsUrl: string) {
  return {
    schema: "2.0",
    config: { update_multi: true },
    header: { title: text("Release v3"), subtitle: text("staging first"), template: "indigo" },
    body: {
      elements: [
        { tag: "markdown", content: "Pick a **target**" },
        {
          tag: "column_set",
          columns: [
            {
              tag: "column",
              elements: [{
                tag: "button",
                text: text("Slow"),
                behaviors: [{ type: "callback", value: { pick: "slow" } }],
              }],
            },
            {
              tag: "column",
              elements: [{
                tag: "button",
                text: text("Docs"),
                behaviors: [{ type: "open_url", default_url: docsUrl }],
              }],
            },
            {
              tag: "column",
              elements: [{ tag: "button", text: text("Locked"), value: { x: 1 }, disabled: true }],
            },
          ],
        },
        {
          tag: "select_static",
          name: "quick",
          placeholder: text("Quick pick"),
          behaviors: [{ type: "callback", value: { menu: "quick" } }],
          options: [{ text: text("One"), value: "1" }, { text: text("Two"), value: "2" }],
        },
        {
          tag: "form",
          name: "release",
          elements: [
            { tag: "input", name: "reason", label: text("Reason"), placeholder: text("Why?") },
            {
              tag: "select_static",
              name: "env",
              initial_option: "stg",
              options: [{ text: text("Staging"), value: "stg" }, {
                text: text("Prod"),
                value: "prod",
              }],
            },
            {
              tag: "button",
              name: "go",
              type: "primary",
              text: text("Submit"),
              form_action_type: "submit",
              behaviors: [{ type: "callback", value: { form: "release" } }],
            },
          ],
        },
      ],
    },
  };
}

const DONE_CARD = {
  schema: "2.0",
  header: { title: text("Released v3"), template: "green" },
  body: { elements: [{ tag: "markdown", content: "Shipped to **prod**" }] },
};

type Action = {
  value?: Record<string, unknown>;
  tag?: string;
  name?: string;
  option?: string;
  form_value?: Record<string, unknown>;
};

Deno.test({
  name: installed()
    ? "page cards: menu, link, disabled, 200340, a late answer (200341) and a form submit, in headless Chromium"
    : `page cards: SKIPPED, ${CHROMIUM_PATH} is absent (install the Debian package "chromium")`,
  ignore: !installed(),
  fn: async () => {
    const clock = new ManualEmuClock();
    await using emu = await startEmulator({ clock });
    const client = sdkClient(emu);
    const slowCalled = Promise.withResolvers<void>();
    const slowRelease = Promise.withResolvers<void>();
    await using ws = startWs(emu, {
      "card.action.trigger": async (data) => {
        const action = data.action as Action;
        if (action.value?.pick === "slow") {
          slowCalled.resolve();
          await slowRelease.promise;
          return {
            toast: { type: "success", content: "too late" },
            card: { type: "raw", data: DONE_CARD },
          };
        }
        if (action.option) {
          return { toast: { type: "info", content: `Picked ${action.option}` } };
        }
        const form = action.form_value ?? {};
        return {
          toast: { type: "warning", content: `Releasing to ${form.env}: ${form.reason}` },
          card: { type: "raw", data: DONE_CARD },
        };
      },
    });
    await emu.ws.whenReady();
    const docsUrl = `${emu.url}/web/style.css`;
    const sent = await client.im.v1.message.create({
      params: { receive_id_type: "chat_id" },
      data: {
        receive_id: D.aliceP2p,
        msg_type: "interactive",
        content: JSON.stringify(askCard(docsUrl)),
      },
    });
    const cardId = sent.data!.message_id!;
    const callbacks = () => ws.seen.filter((s) => s.type === "card.action.trigger");

    const dir = await Deno.makeTempDir({ prefix: "feishu-web-cards-" });
    try {
      await using page = Browser.open(dir);
      await page.goto(emu.url);
      await page.waitFor("body[data-ready=true]");
      await page.select("#user-select", D.alice.openId);
      await page.click(`.chat-item[data-chat-id="${D.aliceP2p}"]`);
      await page.waitFor(".bubble-interactive .card-title", "Release v3");
      assert.match(
        await page.attr(".bubble-interactive .card-header", "class") ?? "",
        /tpl-indigo/,
      );
      assert.equal(await page.text(".bubble-interactive .card-subtitle"), "staging first");
      assert.equal(await page.count(".bubble-interactive .card-column .card-btn"), 3);
      assert.notEqual(
        await page.attr(".bubble-interactive button.card-btn:has-text('Locked')", "disabled"),
        null,
      );

      // A menu outside a form calls back as soon as an option is chosen.
      await page.select('.bubble-interactive select[data-name="quick"]', "2");
      await page.waitFor("#toast[data-type=info]", "Picked 2");
      assert.equal(await page.text("#toast .toast-label"), "Info");
      const picked = callbacks().at(-1)?.data.action as Action;
      assert.equal(picked.option, "2");
      assert.equal(picked.tag, "select_static");
      assert.equal(picked.name, "quick");
      assert.deepEqual(picked.value, { menu: "quick" });

      // A link button opens its URL and sends nothing; with no card callback a click fails.
      await page.click(".bubble-interactive button.card-btn", "Docs");
      emu.faults.setCardCallback("none");
      await page.click(".bubble-interactive button.card-btn", "Slow");
      await page.waitFor("#toast[data-type=error]", "200340");
      assert.equal(await page.text("#toast .toast-label"), "Error");
      assert.equal(callbacks().length, 1);

      // The bot answers after the ACK timeout: the user sees 200341 and the card stays.
      emu.faults.setCardCallback("long_connection");
      await page.click(".bubble-interactive button.card-btn", "Slow");
      await slowCalled.promise;
      clock.advance(emu.settings.ackTimeoutMs);
      await page.waitFor("#toast[data-type=error]", "200341");
      slowRelease.resolve();
      const slow = emu.cardResults().at(-1)!;
      await emu.waitFor(() => emu.event(slow.eventId)?.lateAcks.length === 1);
      await page.waitFor(".card-toast.toast-error", "200341");
      assert.equal(await page.text(".bubble-interactive .card-title"), "Release v3");

      // A form submit sends its fields by name; the bot's toast and new card show.
      await page.fill('.card-form input[data-name="reason"]', "load test passed");
      await page.select('.card-form select[data-name="env"]', "prod");
      await page.click(".card-form button[data-form-action=submit]");
      await page.waitFor("#toast[data-type=warning]", "Releasing to prod: load test passed");
      assert.equal(await page.text("#toast .toast-label"), "Warning");
      await page.waitFor(".bubble-interactive .card-title", "Released v3");
      await page.waitFor(".card-toast.toast-warning", "Releasing to prod");
      assert.equal(await page.count(".bubble-interactive .card-form"), 0);
      const submitted = callbacks().at(-1)?.data.action as Action;
      assert.deepEqual(submitted.form_value, { reason: "load test passed", env: "prod" });
      assert.equal(submitted.name, "go");
      assert.deepEqual(submitted.value, { form: "release" });
      assert.equal(emu.world.messages.get(cardId)?.content, JSON.stringify(DONE_CARD));
    } finally {
      slowRelease.resolve();
      await Deno.remove(dir, { recursive: true });
    }
    assert.deepEqual(emu.errors(), []);
  },
});
