/**
 * Test helpers for the inbound end-to-end suite: the emulator plus the real
 * server over stdio, and ways to wait on what the server does without
 * sleeping — `resources/updated` for `feishu://inbox` (one per notified
 * record), `notifications/claude/channel` pushes, the emulator's change feed,
 * and, only where nothing signals, a poll bounded by count.
 * @module
 */

import { join } from "node:path";
import { z } from "zod";
import { DEFAULT_IDS as D, type Emulator } from "../lib/emulator/mod.ts";
import { REPO, type StartOptions, startServer, type TestServer } from "./_server.ts";

/** The stub transcriber's argv (checks its WAV, prints a fixed transcript). */
export function stubTranscriber(extra: string[] = []): string[] {
  return [
    Deno.execPath(),
    "run",
    "--no-prompt",
    "--allow-read",
    join(REPO, "tests", "fixtures", "stub_transcriber.ts"),
    "{wav}",
    ...extra,
  ];
}

/** A config with one account `main` on the emulator. */
export function bridgeConfig(
  url: string,
  options: { account?: Record<string, unknown>; top?: Record<string, unknown> } = {},
): Record<string, unknown> {
  return {
    accounts: [{
      alias: "main",
      app_id: D.appId,
      app_secret: D.appSecret,
      domain: url,
      ...(options.account ?? {}),
    }],
    ...(options.top ?? {}),
  };
}

/** The params of one `notifications/claude/channel`. */
export interface ChannelPush {
  content: string;
  meta: Record<string, string>;
}

const ChannelParamsSchema = z.object({
  content: z.string(),
  meta: z.record(z.string(), z.string()),
});

/** Counts things as they arrive and lets a test wait for the n-th. */
export class Tally<T> {
  readonly items: T[] = [];
  #waiters: { n: number; resolve: () => void; reject: (e: Error) => void }[] = [];
  #closed: Error | null = null;

  /** Records one item and wakes the waiters it satisfies. */
  push(item: T): void {
    this.items.push(item);
    this.#waiters = this.#waiters.filter((w) => {
      if (this.items.length < w.n) return true;
      w.resolve();
      return false;
    });
  }

  /**
   * Resolves once at least `n` items arrived; rejects if the source ends
   * first, or after a generous guard (a broken bridge fails instead of
   * hanging the suite; nothing is timed by it).
   */
  atLeast(n: number, options: { guardMs?: number } = {}): Promise<T[]> {
    if (this.items.length >= n) return Promise.resolve(this.items);
    if (this.#closed) return Promise.reject(this.#closed);
    let guard: ReturnType<typeof setTimeout> | undefined;
    return new Promise<void>((resolve, reject) => {
      this.#waiters.push({ n, resolve, reject });
      guard = setTimeout(
        () => reject(new Error(`Expected ${n} items but found ${this.items.length}`)),
        options.guardMs ?? 60_000,
      );
    }).then(() => this.items).finally(() => clearTimeout(guard));
  }

  /** Rejects every waiter (the server went away). */
  end(reason: string): void {
    this.#closed = new Error(reason);
    for (const w of this.#waiters.splice(0)) w.reject(this.#closed);
  }
}

/** A started server with its notification tallies. */
export interface Bridge {
  server: TestServer;
  /** `resources/updated` for `feishu://inbox`: one per notified message. */
  updates: Tally<string>;
  /** Claude channel pushes. */
  channel: Tally<ChannelPush>;
  /** Ends the `feishu://inbox` subscription. */
  unsubscribe(): Promise<void>;
  /** One `feishu` call, returning its structured result. */
  call(action: string, input?: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Every record of a chat, oldest first (reads with no limit). */
  records(chatId: string): Promise<Record<string, unknown>[]>;
  /** The parsed status resource. */
  status(): Promise<Record<string, unknown>>;
  /** The status of account `main`. */
  account(): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/**
 * Starts the real server (as an agent spawns it) against the emulator,
 * subscribes to `feishu://inbox`, registers a Claude channel handler, and
 * waits until the service is up.
 */
export async function startBridge(options: StartOptions): Promise<Bridge> {
  const server = await startServer(options);
  const updates = new Tally<string>();
  const channel = new Tally<ChannelPush>();
  server.client.setNotificationHandler("notifications/resources/updated", (n) => {
    updates.push(n.params.uri);
  });
  server.client.setNotificationHandler(
    "notifications/claude/channel",
    { params: ChannelParamsSchema },
    (params) => channel.push(params),
  );
  const previous = server.client.onclose;
  server.client.onclose = () => {
    updates.end("the server closed");
    channel.end("the server closed");
    previous?.();
  };
  const unsubscribe = await server.subscribe("feishu://inbox");
  const call = (action: string, input: Record<string, unknown> = {}) => server.call(action, input);
  await call("accounts");
  const status = async () => JSON.parse(await server.resource("lingtai://status"));
  return {
    server,
    updates,
    channel,
    unsubscribe,
    call,
    async records(chatId) {
      const out = await call("read", { chat_id: chatId, limit: null });
      if (out.status !== "ok") throw new Error(`read failed: ${JSON.stringify(out)}`);
      return (out.messages as Record<string, unknown>[]).reverse();
    },
    status,
    async account() {
      return ((await status()).accounts as Record<string, unknown>[])[0]!;
    },
    close: () => server.close(),
  };
}

/**
 * Retries `probe` until it returns a truthy value, with a tiny await between
 * tries. Only for facts nothing signals (passive events are recorded without
 * a notification, by design). The guard only turns a hang into a failure on
 * a slow machine; nothing is timed by it.
 */
export async function until<T>(
  probe: () => Promise<T | undefined | null | false>,
  options: { guardMs?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + (options.guardMs ?? 60_000);
  while (Date.now() < deadline) {
    const v = await probe();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`Expected ${options.what ?? "the condition"} within the test guard`);
}

/** The pid of the confined server that holds the workdir lock. */
export async function serverPid(workdir: string): Promise<number> {
  const text = await Deno.readTextFile(join(workdir, "feishu", "server.lock"));
  const pid = Number(text.trim());
  if (!Number.isInteger(pid) || pid <= 0) throw new Error(`Expected a pid but found '${text}'`);
  return pid;
}

/** Bytes of a test fixture. */
export function fixture(name: string): Uint8Array {
  return Deno.readFileSync(join(REPO, "tests", "fixtures", name));
}

/**
 * The agent sends, through the `feishu` tool, a card with one button whose
 * click carries `value`; returns the card's Feishu message id.
 */
export async function sendButtonCard(
  bridge: Bridge,
  emu: Emulator,
  chatId: string,
  label: string,
  value: Record<string, unknown>,
): Promise<string> {
  const out = await bridge.call("send", {
    receive_id: chatId,
    receive_id_type: "chat_id",
    content: {
      type: "card",
      card: {
        schema: "2.0",
        body: {
          elements: [{
            tag: "button",
            text: { tag: "plain_text", content: label },
            behaviors: [{ type: "callback", value }],
          }],
        },
      },
    },
  });
  if (out.status !== "sent") {
    throw new Error(`Expected the card sent but found ${JSON.stringify(out)}`);
  }
  return emu.lastSent(chatId)!.messageId;
}
