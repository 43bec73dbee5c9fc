/**
 * A headless Chromium for tests, driven through a child Deno process
 * (`browser_driver.ts`, which loads playwright-core with the permissions it
 * needs and the test run does not grant). Commands go one at a time; every method resolves with the
 * driver's answer or rejects with its error. Test-only.
 * @module
 */

import { join } from "node:path";
import type { DriverCommand, DriverReply } from "./browser_driver.ts";
import { WEB_DIR } from "../_source_hash.ts";

/** Debian's Chromium, which CI installs with `apt-get install -y chromium`. */
export const CHROMIUM_PATH = "/usr/bin/chromium";

/**
 * True when `path` is an installed file.
 *
 * @example
 * ```ts
 * import { installed } from "./browser.ts";
 * if (installed("/no/such/browser")) throw new Error();
 * ```
 */
export function installed(path: string = CHROMIUM_PATH): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

type Target = { selector: string; hasText?: string };

/** A running headless browser with one page. */
export class Browser implements AsyncDisposable {
  readonly #child: Deno.ChildProcess;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #lines: AsyncIterator<string>;
  #next = 0;
  #closed?: Promise<void>;

  private constructor(child: Deno.ChildProcess) {
    this.#child = child;
    this.#writer = child.stdin.getWriter();
    this.#lines = lines(child.stdout)[Symbol.asyncIterator]();
  }

  /** Starts Chromium with a fresh profile under `dir`. */
  static open(dir: string, options: { chromium?: string } = {}): Browser {
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--quiet",
        "--no-prompt",
        "--config",
        join(WEB_DIR, "../../../deno.json"),
        // playwright-core reads OS facts and /proc/sys/fs/binfmt_misc (its WSL probe) when it
        // loads; Deno grants such /proc reads only with --allow-all.
        "--allow-all",
        join(WEB_DIR, "testdata", "browser_driver.ts"),
        options.chromium ?? CHROMIUM_PATH,
        join(dir, "profile"),
      ],
      stdin: "piped",
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    return new Browser(child);
  }

  async #send(c: Omit<DriverCommand, "id">): Promise<unknown> {
    const id = ++this.#next;
    await this.#writer.write(new TextEncoder().encode(`${JSON.stringify({ ...c, id })}\n`));
    const next = await this.#lines.next();
    if (next.done) throw new Error(`Expected an answer to ${c.op} but the browser driver exited`);
    const reply = JSON.parse(next.value) as DriverReply;
    if (reply.id !== id) throw new Error(`Expected answer ${id} but found ${reply.id}`);
    if (!reply.ok) throw new Error(`Browser ${c.op} ${c.selector ?? ""} failed: ${reply.error}`);
    return reply.value;
  }

  /** Opens a URL. */
  async goto(url: string): Promise<void> {
    await this.#send({ op: "goto", value: url });
  }
  /** Waits until an element matches (optionally containing `hasText`). */
  async waitFor(selector: string, hasText?: string): Promise<void> {
    await this.#send({ op: "waitFor", selector, hasText });
  }
  /** Clicks the first match. */
  async click(selector: string, hasText?: string): Promise<void> {
    await this.#send({ op: "click", selector, hasText });
  }
  /** Moves the mouse over the first match (reveals hover-only controls). */
  async hover(selector: string, hasText?: string): Promise<void> {
    await this.#send({ op: "hover", selector, hasText });
  }
  /** Types into an input or textarea (replacing its value). */
  async fill(selector: string, value: string): Promise<void> {
    await this.#send({ op: "fill", selector, value });
  }
  /** Chooses an option of a select by value. */
  async select(selector: string, value: string): Promise<void> {
    await this.#send({ op: "select", selector, value });
  }
  /** The textContent of the first match. */
  async text(t: Target | string): Promise<string | null> {
    return await this.#send({ op: "text", ...target(t) }) as string | null;
  }
  /** The rendered text of the first match. */
  async innerText(t: Target | string): Promise<string> {
    return await this.#send({ op: "innerText", ...target(t) }) as string;
  }
  /** An attribute of the first match. */
  async attr(selector: string, name: string): Promise<string | null> {
    return await this.#send({ op: "attr", selector, name }) as string | null;
  }
  /** How many elements match now. */
  async count(t: Target | string): Promise<number> {
    return await this.#send({ op: "count", ...target(t) }) as number;
  }
  /** Saves a PNG screenshot of the viewport. */
  async screenshot(path: string): Promise<void> {
    await this.#send({ op: "screenshot", path });
  }
  /** Puts a file into a file input (fires its change event). */
  async setFiles(
    selector: string,
    file: { name: string; mimeType: string; bytes: Uint8Array },
  ): Promise<void> {
    const base64 = btoa(String.fromCharCode(...file.bytes));
    await this.#send({
      op: "setFiles",
      selector,
      file: { name: file.name, mimeType: file.mimeType, base64 },
    });
  }

  /** Accepts the next `confirm`/`alert` the page opens (otherwise it is dismissed). */
  async acceptNextDialog(): Promise<void> {
    await this.#send({ op: "acceptDialog" });
  }

  /** Closes the browser and waits for the driver to exit. */
  close(): Promise<void> {
    this.#closed ??= this.#shutdown();
    return this.#closed;
  }

  async #shutdown(): Promise<void> {
    const failures: unknown[] = [];
    // Each step runs even if an earlier one failed, so the child never outlives the test;
    // every failure is collected and reported below.
    await this.#send({ op: "close" }).catch((e) => failures.push(e));
    await this.#writer.close().catch((e) => failures.push(e));
    await drain(this.#lines);
    const status = await this.#child.status;
    if (!status.success) {
      failures.push(
        new Error(`Expected the browser driver to exit with 0 but found ${status.code}`),
      );
    }
    if (failures.length === 1) throw failures[0];
    if (failures.length > 1) throw new AggregateError(failures, "Closing the browser failed");
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

function target(t: Target | string): Target {
  return typeof t === "string" ? { selector: t } : t;
}

async function* lines(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of stream) {
    buffer += decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = buffer.indexOf("\n")) !== -1) {
      yield buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
    }
  }
}

async function drain(it: AsyncIterator<string>): Promise<void> {
  while (!(await it.next()).done) { /* read to the end so the pipe closes */ }
}
