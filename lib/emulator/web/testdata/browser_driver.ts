/**
 * The browser half of the page test, run as its own Deno process: it drives
 * headless Chromium through playwright-core and answers one JSON command per
 * stdin line with one JSON line on stdout. It exists because playwright-core
 * reads OS facts (home directory, kernel release, `/proc/sys/fs/binfmt_misc`)
 * when it loads, which the project's test permissions (no `--allow-sys`, and
 * Deno gives `/proc/sys` reads only to `--allow-all`) refuse. Only this
 * helper process runs with `--allow-all`; the test itself keeps its narrow
 * permissions (it already holds `--allow-run`, which could start it anyway).
 *
 * Usage: `deno run … browser_driver.ts <chromium path> <profile dir>`.
 * @module
 */

import { Buffer } from "node:buffer";
import { chromium, type Locator, type Page } from "playwright-core";

/** One command from the test. */
export interface DriverCommand {
  id: number;
  op:
    | "goto"
    | "waitFor"
    | "click"
    | "hover"
    | "fill"
    | "select"
    | "text"
    | "innerText"
    | "attr"
    | "count"
    | "screenshot"
    | "setFiles"
    | "acceptDialog"
    | "close";
  selector?: string;
  hasText?: string;
  value?: string;
  name?: string;
  path?: string;
  file?: { name: string; mimeType: string; base64: string };
}

/** The answer to one command. */
export type DriverReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: string };

/** The Chromium flags the page test runs with. */
export const CHROMIUM_ARGS: readonly string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

function locate(page: Page, c: DriverCommand): Locator {
  const selector = c.selector ?? "body";
  return page.locator(selector, c.hasText === undefined ? {} : { hasText: c.hasText });
}

async function run(page: Page, c: DriverCommand): Promise<unknown> {
  switch (c.op) {
    case "goto":
      await page.goto(c.value ?? "about:blank");
      return null;
    case "waitFor":
      await locate(page, c).first().waitFor();
      return null;
    case "click":
      await locate(page, c).first().click();
      return null;
    case "hover":
      await locate(page, c).first().hover();
      return null;
    case "fill":
      await locate(page, c).first().fill(c.value ?? "");
      return null;
    case "select":
      return await locate(page, c).first().selectOption(c.value ?? "");
    case "text":
      return await locate(page, c).first().textContent();
    case "innerText":
      return await locate(page, c).first().innerText();
    case "attr":
      return await locate(page, c).first().getAttribute(c.name ?? "");
    case "count":
      return await locate(page, c).count();
    case "screenshot":
      await page.screenshot({ path: c.path ?? "screenshot.png" });
      return null;
    case "setFiles": {
      const f = c.file ?? { name: "f", mimeType: "application/octet-stream", base64: "" };
      const buffer = Buffer.from(f.base64, "base64");
      await locate(page, c).first().setInputFiles({ name: f.name, mimeType: f.mimeType, buffer });
      return null;
    }
    case "acceptDialog":
      // Playwright dismisses every dialog nobody listens for; accept just the next one.
      page.once("dialog", (dialog) => void dialog.accept());
      return null;
    case "close":
      return null;
  }
}

async function writeLine(reply: DriverReply): Promise<void> {
  await Deno.stdout.write(new TextEncoder().encode(`${JSON.stringify(reply)}\n`));
}

async function main(executablePath: string, profile: string): Promise<void> {
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    args: [...CHROMIUM_ARGS],
    viewport: { width: 1280, height: 860 },
  });
  try {
    context.setDefaultTimeout(15_000);
    const page = context.pages()[0] ?? await context.newPage();
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const chunk of Deno.stdin.readable) {
      buffer += decoder.decode(chunk, { stream: true });
      let nl: number;
      while ((nl = buffer.indexOf("\n")) !== -1) {
        const c = JSON.parse(buffer.slice(0, nl)) as DriverCommand;
        buffer = buffer.slice(nl + 1);
        try {
          await writeLine({ id: c.id, ok: true, value: await run(page, c) });
        } catch (error) {
          await writeLine({
            id: c.id,
            ok: false,
            error: error instanceof Error ? error.message : String(error),
          });
        }
        if (c.op === "close") return;
      }
    }
  } finally {
    await context.close();
  }
}

if (import.meta.main) {
  const [executable, profile] = Deno.args;
  if (!executable || !profile) {
    throw new Error(
      `Expected arguments <chromium path> <profile dir> but found ${JSON.stringify(Deno.args)}`,
    );
  }
  await main(executable, profile);
}
