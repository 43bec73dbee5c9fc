/**
 * Test rig for the outbound suites: one emulator and the real server spawned
 * over stdio against it, plus helpers to script an inbound message and wait
 * until the server has recorded it (its Claude-channel push), without sleeps.
 * @module
 */

import { join } from "node:path";
import {
  DEFAULT_IDS,
  type Emulator,
  type EmulatorOptions,
  startEmulator,
  type StoredMessage,
} from "../lib/emulator/mod.ts";
import { startServer, type TestServer } from "./_server.ts";
import { until } from "./_inbound.ts";

export { DEFAULT_IDS as D };

/** One channel push the server sent. */
export interface ChannelPush {
  content: string;
  meta: Record<string, string>;
}

/** A running emulator + server pair. */
export interface Rig extends AsyncDisposable {
  emu: Emulator;
  server: TestServer;
  /** One `feishu` call; returns `structuredContent`. */
  call(action: string, input: Record<string, unknown>): Promise<Record<string, unknown>>;
  /**
   * A user sends a message (mentioning the bot in groups); resolves with its
   * compound id once the server has recorded it (OK and Typing follow on their own;
   * see `presenceDrained`).
   */
  inbound(
    input: Parameters<Emulator["userSends"]>[0],
  ): Promise<{ id: string; messageId: string; push: ChannelPush }>;
  /**
   * Resolves once no presence write (OK, Typing, THUMBSUP) waits or runs: they
   * no longer hold up a record or a result, so a test that counts the requests
   * of its own calls waits for them first.
   */
  presenceDrained(): Promise<void>;
  /** Texts of the bot's messages in a chat, oldest first. */
  botTexts(chatId: string): string[];
  /** A directory inside the server's media roots, for path sources. */
  mediaDir: string;
  close(): Promise<void>;
}

/** Options of {@link startRig}. */
export interface RigOptions {
  emulator?: EmulatorOptions;
  /** Extra top-level config keys. */
  config?: Record<string, unknown>;
}

/** Waits until the status resource counts no presence write in any account. */
export async function presenceDrained(status: () => Promise<string>): Promise<void> {
  await until(async () => {
    const accounts = JSON.parse(await status()).accounts as { presence?: { queued: number } }[];
    return accounts.every((a) => (a.presence?.queued ?? 0) === 0);
  }, { what: "presence writes to drain" });
}

/** Starts an emulator and the server configured against it. */
export async function startRig(options: RigOptions = {}): Promise<Rig> {
  const emu = await startEmulator(options.emulator);
  const workdir = await Deno.makeTempDir({ prefix: "feishu-mcp-outbound-" });
  const mediaDir = join(workdir, "media");
  await Deno.mkdir(mediaDir);
  const server = await startServer({
    workdir,
    config: {
      accounts: [{
        alias: "main",
        app_id: DEFAULT_IDS.appId,
        app_secret: DEFAULT_IDS.appSecret,
        domain: emu.url,
      }],
      ...options.config,
    },
  });
  const pushes: ChannelPush[] = [];
  const waiters: { test: (p: ChannelPush) => boolean; resolve: (p: ChannelPush) => void }[] = [];
  server.client.fallbackNotificationHandler = (n) => {
    if (n.method === "notifications/claude/channel") {
      const push = n.params as unknown as ChannelPush;
      pushes.push(push);
      for (const w of [...waiters]) {
        if (w.test(push)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(push);
        }
      }
    }
    return Promise.resolve();
  };
  // A failsafe, not a wait: a message the server never records fails the test instead of hanging it.
  const pushFor = (test: (p: ChannelPush) => boolean, what: string) =>
    new Promise<ChannelPush>((resolve, reject) => {
      const seen = pushes.find(test);
      if (seen) return resolve(seen);
      const timer = setTimeout(() => {
        waiters.splice(waiters.indexOf(waiter), 1);
        reject(new Error(`Expected the server to record ${what} but it never pushed it`));
      }, 30_000);
      const waiter = {
        test,
        resolve: (p: ChannelPush) => {
          clearTimeout(timer);
          resolve(p);
        },
      };
      waiters.push(waiter);
    });
  // A first call loads the service (and with it the long connection).
  await server.call("accounts", {});
  await emu.ws.whenReady();
  const rig: Rig = {
    emu,
    server,
    mediaDir,
    call: (action, input) => server.call(action, input),
    async inbound(input) {
      // Group messages reach the agent only when they mention the bot.
      const p2p = emu.world.chats.get(input.chat)?.mode === "p2p";
      const { messageId } = emu.userSends(
        p2p || input.mentions ? input : { ...input, mentions: ["bot"] },
      );
      const push = await pushFor(
        (p) => p.meta.message_id?.endsWith(`:${messageId}`) ?? false,
        `message ${messageId}`,
      );
      return { id: push.meta.message_id!, messageId: messageId!, push };
    },
    presenceDrained: () => presenceDrained(() => server.resource("lingtai://status")),
    botTexts: (chatId) =>
      emu.messages(chatId).filter((m: StoredMessage) => m.sender.type === "app").map((m) =>
        m.msgType === "text" ? JSON.parse(m.content).text : m.content
      ),
    async close() {
      await server.close();
      await emu.close();
    },
    [Symbol.asyncDispose]() {
      return rig.close();
    },
  };
  return rig;
}
