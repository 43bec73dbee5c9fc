/**
 * The web page "scans" an app registration in headless Chromium: a code
 * opened on the accounts endpoint shows with Approve / Deny, and the button
 * answers as the user the page acts as. Skipped (with the reason in its
 * name) only when Chromium is not installed.
 */

import assert from "node:assert/strict";
import { DEFAULT_IDS, startEmulator } from "../mod.ts";
import { Browser, CHROMIUM_PATH, installed } from "./testdata/browser.ts";

const D = DEFAULT_IDS;

async function begin(url: string): Promise<{ device_code: string; user_code: string }> {
  const res = await fetch(`${url}/oauth/v1/app/registration`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "action=begin&archetype=PersonalAgent",
  });
  return await res.json();
}

Deno.test({
  name: installed()
    ? "page: a pending app registration is approved as Bob and another denied from the page"
    : `page: SKIPPED, ${CHROMIUM_PATH} is absent (install the Debian package "chromium")`,
  ignore: !installed(),
  fn: async () => {
    await using emu = await startEmulator();
    const first = await begin(emu.url);
    const dir = await Deno.makeTempDir({ prefix: "feishu-web-" });
    try {
      await using page = Browser.open(dir);
      await page.goto(`${emu.url}/?register=${first.user_code}`);
      await page.waitFor("body[data-ready=true]");
      await page.select("#user-select", D.bob.openId);
      await page.waitFor(".registration-sub", "Scan as Bob");
      await page.click(`.registration[data-code="${first.user_code}"] button`, "Approve");
      await page.waitFor("#toast", "Approved: app cli_");
      const approved = emu.registrations.find(first.device_code);
      assert.equal(approved.status, "approved");
      assert.equal(approved.approvedBy, D.bob.openId);
      assert.ok(emu.world.apps.has(approved.appId!));

      // A new code shows up live (the change stream), and Deny refuses it.
      const second = await begin(emu.url);
      await page.click(`.registration[data-code="${second.user_code}"] button`, "Deny");
      await page.waitFor("#toast", "Denied");
      assert.equal(emu.registrations.find(second.device_code).status, "denied");
      // Answered codes leave the list: a third one shows alone.
      const third = await begin(emu.url);
      await page.waitFor(`.registration[data-code="${third.user_code}"]`);
      assert.equal(await page.count(".registration"), 1);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
    assert.deepEqual(emu.errors(), []);
  },
});
