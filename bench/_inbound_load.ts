/**
 * Load helpers of the inbound benchmark: emulator chats to spread events
 * over, a burst and a paced stream of user messages with their ACK times,
 * the bare-SDK baseline process, and a process's resident memory (a store
 * filled with realistic records: `_store_fill.ts`).
 * @module
 */

import { join } from "node:path";
import { DEFAULT_IDS as D, type Emulator, makeChat } from "../lib/emulator/mod.ts";
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

/**
 * Pushes `n` messages at `perSecond`; resolves with each ACKed message's ACK
 * latency (ms). With `guardMs`, stops waiting that long after the last push:
 * messages never ACKed by then (Feishu gave up on them) are left out.
 */
export async function paced(
  emu: Emulator,
  chats: string[],
  options: { n: number; perSecond: number; guardMs?: number },
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
  if (options.guardMs === undefined) {
    await Promise.all(done);
    return latencies;
  }
  let guard: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    Promise.all(done),
    new Promise((r) => (guard = setTimeout(r, options.guardMs))),
  ]).finally(() => clearTimeout(guard));
  return [...latencies];
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

/** Resident memory of a process in MiB (`ps`; /proc needs more permissions than a bench has). */
export async function rssMiB(pid: number): Promise<number> {
  const out = await new Deno.Command("ps", { args: ["-o", "rss=", "-p", String(pid)] }).output();
  return Number(new TextDecoder().decode(out.stdout).trim()) / 1024;
}
