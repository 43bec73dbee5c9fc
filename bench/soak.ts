// deno-lint-ignore-file no-console -- a soak reports on stdout
/**
 * `deno task soak`: the long reliability run, not in CI.
 *
 * 1. The long form of the inbound chaos suite (`CHAOS_MESSAGES`, default
 *    2000 messages over 5 chats with drops, a silence, withheld ACKs…),
 *    run as its own `deno test` (skip with `--burst 0`).
 * 2. The soak: the real server over stdio against the emulator for
 *    `--minutes` (default 30) at `--in` user messages/s (20) and `--sends`
 *    agent sends/s (5) over 5 chats, the long connection dropped every
 *    `--drop-every` seconds (5; 0 = never). Every 10 s it samples the
 *    server's RSS, open fds (`/proc/<pid>/fd`), `store.db*` and `queue.kv*`
 *    sizes; at the end it prints the table, whether each plateaus (the last
 *    third grows by less than the slack over the middle third), and the
 *    invariants: lost, doubled and reordered messages, sends not held
 *    exactly once.
 *
 * `deno task soak --minutes 2 --burst 0` is a quick look.
 */

import { join } from "node:path";
import { parseArgs } from "node:util";
import { DEFAULT_IDS as D, startEmulator } from "../lib/emulator/mod.ts";
import { bridgeConfig, serverPid, startBridge } from "../tests/_inbound.ts";
import { REPO } from "../tests/_server.ts";
import { rssMiB } from "./_inbound_load.ts";
import {
  backfillAfter,
  chaosChats,
  drainedJournal,
  inboundFigures,
  printFigures,
} from "../tests/_chaos.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    minutes: { type: "string", default: "30" },
    in: { type: "string", default: "20" },
    sends: { type: "string", default: "5" },
    "drop-every": { type: "string", default: "5" },
    burst: { type: "string", default: "2000" },
  },
});
const MINUTES = Number(values.minutes);
const IN_RATE = Number(values.in);
const SEND_RATE = Number(values.sends);
const DROP_EVERY = Number(values["drop-every"]);
const BURST = Number(values.burst);
const SAMPLE_MS = 10_000;

/** Phase 1: the inbound chaos suite at full size, in its own process. */
async function longBurst(): Promise<boolean> {
  console.log(`## inbound chaos, long form: ${BURST} messages`);
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "test",
      "--no-prompt",
      "--allow-read",
      "--allow-write",
      "--allow-net=127.0.0.1",
      "--allow-env",
      "--allow-run",
      join(REPO, "tests", "chaos_inbound_e2e_test.ts"),
    ],
    env: { CHAOS_MESSAGES: String(BURST) },
    cwd: REPO,
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  return out.success;
}

/** Total size of the files in `dir` whose name starts with `prefix` (WAL files included). */
async function sizeOf(dir: string, prefix: string): Promise<number> {
  let total = 0;
  for await (const e of Deno.readDir(dir)) {
    if (e.isFile && e.name.startsWith(prefix)) total += (await Deno.stat(join(dir, e.name))).size;
  }
  return total;
}

interface Sample {
  minute: number;
  rssMiB: number;
  fds: number;
  storeKiB: number;
  queueKiB: number;
  received: number;
  sent: number;
}

async function sample(
  pid: number,
  state: string,
  t0: number,
  counts: { received: number; sent: number },
): Promise<Sample> {
  // Deno reads /proc only with --allow-all: ask ps and ls (--allow-run) instead.
  const rss = await rssMiB(pid);
  const ls = await new Deno.Command("ls", { args: [`/proc/${pid}/fd`] }).output();
  const fds = new TextDecoder().decode(ls.stdout).split("\n").filter(Boolean).length;
  return {
    minute: (performance.now() - t0) / 60_000,
    rssMiB: rss,
    fds,
    storeKiB: (await sizeOf(state, "store.db")) / 1024,
    queueKiB: (await sizeOf(state, "queue.kv")) / 1024,
    ...counts,
  };
}

/** Plateau: the last third's peak is within `slack` of the middle third's peak. */
function plateau(samples: Sample[], key: keyof Sample, slack: (v: number) => number): string {
  if (samples.length < 6) return "too few samples";
  const third = Math.floor(samples.length / 3);
  const middle = Math.max(...samples.slice(third, 2 * third).map((s) => s[key]));
  const last = Math.max(...samples.slice(2 * third).map((s) => s[key]));
  const minutes = samples.at(-1)!.minute - samples[third]!.minute;
  const rate = (samples.at(-1)![key] - samples[third]![key]) / Math.max(minutes, 1e-9);
  return `${last <= middle + slack(middle) ? "plateaus" : "GROWS"} (${
    rate.toFixed(2)
  }/min after warm-up)`;
}

async function soak(): Promise<boolean> {
  console.log(
    `## soak: ${MINUTES} min at ${IN_RATE} in/s and ${SEND_RATE} sends/s over 5 chats, drop every ${
      DROP_EVERY || "never"
    } s`,
  );
  await using emu = await startEmulator({ ackTimeoutMs: 1000 });
  const chats = chaosChats(emu, 5, "oc_soak");
  const bridge = await startBridge({ config: bridgeConfig(emu.url) });
  const samples: Sample[] = [];
  const counts = { received: 0, sent: 0 };
  const failures: Record<string, number> = {};
  const pending = new Set<Promise<unknown>>();
  try {
    await emu.ws.whenReady();
    const pid = await serverPid(bridge.server.workdir);
    const state = join(bridge.server.workdir, "feishu");
    const t0 = performance.now();
    const end = t0 + MINUTES * 60_000;
    const timers = [
      setInterval(() => {
        emu.userSends({
          user: D.alice.openId,
          chat: chats[counts.received % chats.length]!,
          text: `soak ${counts.received++}`,
        });
      }, 1000 / IN_RATE),
      setInterval(() => {
        const n = counts.sent++;
        const p = bridge.call("send", {
          receive_id: chats[n % chats.length],
          receive_id_type: "chat_id",
          text: `[soak-send-${n}]`,
          idempotency_key: `soak-${n}`,
        }).then((out) => {
          if (out.status !== "sent") {
            const k = String(out.error_code);
            failures[k] = (failures[k] ?? 0) + 1;
          }
        }, (e) => {
          const k = `client: ${String(e).slice(0, 60)}`;
          failures[k] = (failures[k] ?? 0) + 1;
        });
        pending.add(p);
        void p.finally(() => pending.delete(p));
      }, 1000 / SEND_RATE),
      ...(DROP_EVERY > 0 ? [setInterval(() => emu.ws.drop(), DROP_EVERY * 1000)] : []),
    ];
    while (performance.now() < end) {
      await new Promise((r) => setTimeout(r, Math.min(SAMPLE_MS, end - performance.now())));
      const s = await sample(pid, state, t0, counts);
      samples.push(s);
      console.log(
        `${s.minute.toFixed(1)} min  rss ${s.rssMiB.toFixed(1)} MiB  fds ${s.fds}  store ${
          s.storeKiB.toFixed(0)
        } KiB  queue ${s.queueKiB.toFixed(0)} KiB  in ${s.received}  sends ${s.sent}`,
      );
    }
    for (const t of timers) clearInterval(t);
    await Promise.all(pending);
    const since = new Date().toISOString();
    emu.ws.drop();
    await backfillAfter(bridge, since);
    const journal = await drainedJournal(bridge, 600_000);
    const figures = await inboundFigures(bridge, emu, chats);
    let notOnce = 0;
    const bot = chats.flatMap((c) => emu.messages(c).filter((m) => m.sender.type === "app"));
    for (let n = 0; n < counts.sent; n++) {
      if (bot.filter((m) => m.content.includes(`[soak-send-${n}]`)).length !== 1) notOnce++;
    }
    console.log("\n| minute | RSS MiB | fds | store.db KiB | queue.kv KiB | in | sends |");
    console.log("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (const s of samples) {
      console.log(
        `| ${s.minute.toFixed(1)} | ${s.rssMiB.toFixed(1)} | ${s.fds} | ${
          s.storeKiB.toFixed(0)
        } | ${s.queueKiB.toFixed(0)} | ${s.received} | ${s.sent} |`,
      );
    }
    console.log(`\nRSS: ${plateau(samples, "rssMiB", (v) => v * 0.1)}`);
    console.log(`fds: ${plateau(samples, "fds", () => 5)}`);
    console.log(
      `store.db: ${plateau(samples, "storeKiB", (v) => v * 0.1)} (it keeps every message)`,
    );
    console.log(`queue.kv: ${plateau(samples, "queueKiB", (v) => v * 0.1)}`);
    printFigures("soak", {
      minutes: MINUTES,
      inputs: figures.inputs,
      sends: counts.sent,
      send_failures: failures,
      lost: figures.lost,
      doubled: figures.doubled,
      inversions: figures.inversions,
      sends_not_held_once: notOnce,
      journal_pending: journal.pending,
      dead_letters: journal.dead_letters,
    });
    return figures.lost === 0 && figures.doubled === 0 && figures.inversions === 0 &&
      notOnce === 0 && journal.dead_letters === 0;
  } catch (e) {
    console.log(
      `soak stopped: ${e}\nserver stderr (tail):\n${bridge.server.stderr().slice(-3000)}`,
    );
    return false;
  } finally {
    await bridge.close();
  }
}

const burstOk = BURST > 0 ? await longBurst() : true;
const soakOk = await soak();
console.log(
  `\nlong burst: ${burstOk ? "ok" : "FAILED"}; soak invariants: ${soakOk ? "ok" : "FAILED"}`,
);
if (!burstOk || !soakOk) Deno.exit(1);
