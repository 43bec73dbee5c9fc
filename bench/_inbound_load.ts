/**
 * Load helpers of the inbound benchmark: emulator chats to spread events
 * over, a burst and a paced stream of user messages with their ACK times,
 * the bare-SDK baseline process, a store filled with realistic records, and
 * a process's resident memory.
 * @module
 */

import { join } from "node:path";
import { DEFAULT_IDS as D, type Emulator, makeChat } from "../lib/emulator/mod.ts";
import { normaliseMessage } from "../lib/inbound/mod.ts";
import { openStore } from "../lib/store/mod.ts";
import { systemClock } from "../lib/core/mod.ts";
import { REPO } from "../tests/_server.ts";

/** Adds `n` DM-like chats of Alice with the bot; returns their ids. */
export function benchChats(emu: Emulator, n: number): string[] {
  return Array.from({ length: n }, (_, i) => {
    const chatId = `oc_bench_${i}`;
    emu.world.addChat(makeChat({
      chatId,
      name: `bench ${i}`,
      mode: "p2p",
      members: [D.alice.openId],
      bots: [D.appId],
    }));
    return chatId;
  });
}

/** Pushes `n` messages at once; resolves with the time (ms) until the last ACK. */
export async function burst(emu: Emulator, chats: string[], n: number): Promise<number> {
  const t0 = performance.now();
  const acks: Promise<unknown>[] = [];
  for (let i = 0; i < n; i++) {
    acks.push(
      emu.userSends({ user: D.alice.openId, chat: chats[i % chats.length]!, text: `burst ${i}` })
        .ack,
    );
  }
  await Promise.all(acks);
  return performance.now() - t0;
}

/** Pushes `n` messages at `perSecond`; resolves with each message's ACK latency (ms). */
export async function paced(
  emu: Emulator,
  chats: string[],
  options: { n: number; perSecond: number },
): Promise<number[]> {
  const latencies: number[] = [];
  const done: Promise<unknown>[] = [];
  const start = performance.now();
  for (let i = 0; i < options.n; i++) {
    const wait = start + (i * 1000) / options.perSecond - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const t = performance.now();
    const sent = emu.userSends({
      user: D.alice.openId,
      chat: chats[i % chats.length]!,
      text: `paced ${i}`,
    });
    done.push(sent.ack.then(() => latencies.push(performance.now() - t)));
  }
  await Promise.all(done);
  return latencies;
}

/** The baseline process: a bare node-sdk WSClient that only ACKs. */
export function startBareClient(emu: Emulator): { stop(): Promise<void> } {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-prompt",
      "--allow-net=127.0.0.1",
      "--allow-env",
      "--allow-read",
      join(REPO, "bench", "_bare_ws_client.ts"),
      emu.url,
      D.appId,
      D.appSecret,
    ],
    cwd: REPO,
    stdin: "piped",
    stdout: "null",
    stderr: "null",
  }).spawn();
  return {
    async stop() {
      await child.stdin.close();
      await child.status;
    },
  };
}

const WORDS = ["deploy", "invoice", "meeting", "report", "budget", "review", "launch", "ticket"];

/**
 * Fills `<workdir>/feishu/store.db` with `n` realistic inbound records (real
 * envelopes through the real normaliser) spread over 50 chats and 30 days;
 * every 10 000th message says `needle`.
 */
export function fillStore(workdir: string, n: number): void {
  const store = openStore(workdir, systemClock);
  const now = Date.now();
  try {
    for (let base = 0; base < n; base += 1000) {
      store.transaction(() => {
        for (let i = base; i < Math.min(n, base + 1000); i++) {
          const chat = `oc_hist_${i % 50}`;
          const created = now - 30 * 86_400_000 + Math.floor((i / n) * 30 * 86_400_000);
          const text = `${WORDS[i % 8]} ${WORDS[(i * 7) % 8]} number ${i}` +
            (i % 10_000 === 0 ? " needle" : "");
          const envelope = {
            schema: "2.0",
            header: {
              event_id: `ev_hist_${i}`,
              event_type: "im.message.receive_v1",
              create_time: String(created),
            },
            event: {
              sender: {
                sender_id: { open_id: D.alice.openId, user_id: D.alice.userId },
                sender_type: "user",
              },
              message: {
                message_id: `om_hist_${i}`,
                create_time: String(created),
                chat_id: chat,
                chat_type: "p2p",
                message_type: "text",
                content: JSON.stringify({ text }),
              },
            },
          };
          const rec =
            normaliseMessage(envelope, { alias: "main", botOpenId: D.botOpenId, nowMs: now })!
              .record;
          store.records.insert({
            account: "main",
            id: rec.id,
            chatId: rec.chat_id,
            feishuMessageId: rec.feishu_message_id,
            feishuEventId: `ev_hist_${i}`,
            direction: "incoming",
            kind: "message",
            createTime: created,
            fromOpenId: rec.from_open_id,
            record: rec,
          });
        }
      });
    }
  } finally {
    store.close();
  }
}

/** Resident memory of a process in MiB (`ps`; /proc needs more permissions than a bench has). */
export async function rssMiB(pid: number): Promise<number> {
  const out = await new Deno.Command("ps", { args: ["-o", "rss=", "-p", String(pid)] }).output();
  return Number(new TextDecoder().decode(out.stdout).trim()) / 1024;
}
