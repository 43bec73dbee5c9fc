/**
 * The child process of the journal crash test. Not product code.
 *
 * `--mode burst`: starts the workers, then admits events `ev_0, ev_1, …` from
 * a few concurrent lanes across `--chats` chats; after each admit resolves it
 * appends the event to `acks.txt` (the "ACK") and prints `ack <n>`. The
 * handler writes every run to `invocations` and, after a short wait, the
 * event to `processed` with `INSERT OR IGNORE` (an idempotent sink). The run
 * of event `--stuck-at` never finishes (it prints `stuck <n>`), so the test can
 * `kill -9` while that job is surely in flight.
 *
 * `--mode drain`: prints `open pending=<n>`, drains, prints `idle`, exits.
 *
 * `--mode repush --upto <n>`: re-admits `ev_0 … ev_<n>` as Feishu would after
 * missing ACKs, prints `readmit <n> <result>` for each, drains, exits.
 * @module
 */

import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { parseArgs } from "node:util";
import { createLogger, systemClock } from "../../core/mod.ts";
import { type Job, openJournal } from "../mod.ts";

const args = parseArgs({
  args: Deno.args,
  options: {
    dir: { type: "string" },
    mode: { type: "string" },
    events: { type: "string", default: "100000" },
    chats: { type: "string", default: "4" },
    lanes: { type: "string", default: "3" },
    "stuck-at": { type: "string", default: "-1" },
    "delay-ms": { type: "string", default: "2" },
    upto: { type: "string", default: "-1" },
  },
}).values;

const dir = args.dir!;
const mode = args.mode!;
const chats = Number(args.chats);
const stuckAt = Number(args["stuck-at"]);
const delayMs = Number(args["delay-ms"]);
const encoder = new TextEncoder();
const say = (line: string) => Deno.stdout.writeSync(encoder.encode(line + "\n"));

const sink = new DatabaseSync(join(dir, "sink.db"));
sink.exec("PRAGMA journal_mode = WAL");
sink.exec(`CREATE TABLE IF NOT EXISTS processed (
  event TEXT PRIMARY KEY, chat TEXT NOT NULL, n INTEGER NOT NULL, seq INTEGER NOT NULL, run TEXT NOT NULL)`);
sink.exec(`CREATE TABLE IF NOT EXISTS invocations (
  id INTEGER PRIMARY KEY AUTOINCREMENT, event TEXT NOT NULL, attempt INTEGER NOT NULL, run TEXT NOT NULL)`);
const recordRun = sink.prepare("INSERT INTO invocations (event, attempt, run) VALUES (?, ?, ?)");
const recordDone = sink.prepare(
  "INSERT OR IGNORE INTO processed (event, chat, n, seq, run) VALUES (?, ?, ?, ?, ?)",
);

const journal = await openJournal({
  path: join(dir, "queue.kv"),
  clock: systemClock,
  log: createLogger({ level: "warn", name: "crash-child" }),
});

const event = (n: number) => ({
  account: "main",
  chatKey: `oc_${(n * 5 + Math.floor(n / 7)) % chats}`,
  dedupeKeys: [`event:ev_${n}`, `message:om_${n}`],
  payload: { event: `ev_${n}`, n },
});

async function handle(job: Job): Promise<void> {
  const { event: id, n } = job.payload as { event: string; n: number };
  recordRun.run(id, job.attempt, mode);
  if (n === stuckAt && mode === "burst") {
    say(`stuck ${n}`);
    await new Promise(() => {}); // never settles: the test kills the process here
  }
  await systemClock.sleep(delayMs);
  recordDone.run(id, job.chatKey, n, job.seq, mode);
}

if (mode === "burst") {
  journal.start(handle);
  const total = Number(args.events);
  let next = 0;
  const lane = async () => {
    while (next < total) {
      const n = next++;
      const result = await journal.admit(event(n));
      if (result !== "queued") throw new Error(`Expected queued but found ${result} for ev_${n}`);
      Deno.writeTextFileSync(join(dir, "acks.txt"), `ev_${n}\n`, { append: true });
      say(`ack ${n}`);
    }
  };
  await Promise.all(Array.from({ length: Number(args.lanes) }, lane));
  say("burst done");
} else if (mode === "drain") {
  say(`open pending=${journal.stats().pending}`);
  journal.start(handle);
} else if (mode === "repush") {
  journal.start(handle);
  for (let n = 0; n <= Number(args.upto); n++) {
    say(`readmit ${n} ${await journal.admit(event(n))}`);
  }
} else {
  throw new Error(`Expected --mode burst, drain or repush but found ${mode}`);
}
await journal.idle();
say(`idle processed=${journal.stats().processed}`);
await journal.close();
sink.close();
