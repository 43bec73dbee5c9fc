import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { withTempDir } from "./testdata/helpers.ts";

const CHILD = join(import.meta.dirname!, "testdata", "crash_child.ts");
const CHATS = 4;
const LANES = 3;
const KILL_AFTER_ACKS = 200;
const STUCK_AT = 60;

interface Child {
  /** Resolves with each stdout line; `null` at end of output. */
  nextLine(): Promise<string | null>;
  kill(): void;
  /** Reads the rest of stdout and waits for the exit; returns all lines and stderr. */
  finish(): Promise<{ lines: string[]; status: Deno.CommandStatus; stderr: string }>;
}

function spawnChild(dir: string, extra: string[]): Child {
  const cmd = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-prompt",
      "--unstable-kv",
      `--allow-read=${dir}`,
      `--allow-write=${dir}`,
      CHILD,
      `--dir=${dir}`,
      `--chats=${CHATS}`,
      `--lanes=${LANES}`,
      ...extra,
    ],
    stdout: "piped",
    stderr: "piped",
  });
  const proc = cmd.spawn();
  const stderr = new Response(proc.stderr).text();
  const reader = proc.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  const lines: string[] = [];
  const nextLine = async (): Promise<string | null> => {
    while (!buffer.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) return null;
      buffer += value;
    }
    const at = buffer.indexOf("\n");
    const line = buffer.slice(0, at);
    buffer = buffer.slice(at + 1);
    lines.push(line);
    return line;
  };
  return {
    nextLine,
    kill: () => proc.kill("SIGKILL"),
    finish: async () => {
      while ((await nextLine()) !== null);
      return { lines, status: await proc.status, stderr: await stderr };
    },
  };
}

async function runToEnd(dir: string, extra: string[]) {
  const out = await spawnChild(dir, extra).finish();
  assert.equal(out.status.code, 0, `child ${extra.join(" ")} failed:\n${out.stderr}`);
  return out.lines;
}

function readSink(dir: string) {
  const db = new DatabaseSync(join(dir, "sink.db"), { readOnly: true });
  try {
    const processed = db.prepare("SELECT event, chat, n FROM processed ORDER BY rowid").all()
      .map((r) => ({ event: String(r.event), chat: String(r.chat), n: Number(r.n) }));
    const runs = new Map<string, number>();
    for (
      const r of db.prepare("SELECT event, COUNT(*) AS c FROM invocations GROUP BY event").all()
    ) {
      runs.set(String(r.event), Number(r.c));
    }
    return { processed, runs };
  } finally {
    db.close();
  }
}

Deno.test("journal survives kill -9 mid-burst: every acknowledged event is processed exactly once, in per-chat order", () =>
  withTempDir(async (dir) => {
    // 1. Burst: kill -9 once enough admits were acknowledged and the stuck job is surely running.
    const burst = spawnChild(dir, ["--mode=burst", `--stuck-at=${STUCK_AT}`, "--delay-ms=2"]);
    let acks = 0;
    let stuck = false;
    for (let line = await burst.nextLine(); line !== null; line = await burst.nextLine()) {
      if (line.startsWith("ack ")) acks++;
      if (line === `stuck ${STUCK_AT}`) stuck = true;
      if (stuck && acks >= KILL_AFTER_ACKS) break;
    }
    assert.ok(stuck && acks >= KILL_AFTER_ACKS, "the burst child reported enough progress");
    burst.kill();
    const killed = await burst.finish();
    assert.equal(killed.status.signal, "SIGKILL");
    assert.ok(!killed.lines.includes("burst done"), "the kill landed mid-burst");

    const acked = (await Deno.readTextFile(join(dir, "acks.txt"))).split("\n").filter(Boolean);
    const ackedN = acked.map((e) => Number(e.slice(3)));
    const maxAcked = Math.max(...ackedN);
    // Lanes admit in n order, so anything committed has n <= maxAcked + LANES.
    const maybeCommitted = maxAcked + LANES;
    const beforeDrain = readSink(dir);
    assert.ok(!beforeDrain.processed.some((p) => p.event === `ev_${STUCK_AT}`));

    // 2. Restart in drain-only mode and wait for idle.
    const drain = await runToEnd(dir, ["--mode=drain"]);
    assert.match(drain[0]!, /^open pending=\d+$/);
    assert.ok(Number(drain[0]!.split("=")[1]) > 0, "the restart found work left in the FIFOs");
    const afterDrain = readSink(dir);
    const processedEvents = afterDrain.processed.map((p) => p.event);

    // Every acknowledged event is in the sink exactly once.
    const seen = new Set(processedEvents);
    assert.equal(seen.size, processedEvents.length);
    for (const e of acked) assert.ok(seen.has(e), `${e} was acknowledged but not processed`);
    // Nothing outside what could have been committed was processed.
    for (const p of afterDrain.processed) assert.ok(p.n <= maybeCommitted, `${p.event} invented`);
    assert.ok(processedEvents.length - acked.length <= LANES);
    // Per-chat order of first processing is the admit order.
    for (let c = 0; c < CHATS; c++) {
      const ns = afterDrain.processed.filter((p) => p.chat === `oc_${c}`).map((p) => p.n);
      assert.deepEqual(ns, [...ns].sort((a, b) => a - b), `order of oc_${c}`);
    }
    // Re-runs: the stuck job ran again after the restart; at most one job per chat
    // was in flight at the kill, so at most CHATS runs were repeated.
    assert.equal(afterDrain.runs.get(`ev_${STUCK_AT}`), 2);
    const extra = [...afterDrain.runs.values()].reduce((n, c) => n + c - 1, 0);
    assert.ok(extra >= 1 && extra <= CHATS, `repeated runs: ${extra}`);
    assert.equal(afterDrain.runs.size, processedEvents.length);

    // 3. Feishu re-pushes everything that may have been sent: acknowledged events are
    // duplicates, the rest is admitted once, and the sink ends with each exactly once.
    const repush = await runToEnd(dir, ["--mode=repush", `--upto=${maybeCommitted}`]);
    const results = new Map(
      repush.filter((l) => l.startsWith("readmit ")).map((l) => {
        const [, n, result] = l.split(" ");
        return [`ev_${n}`, result];
      }),
    );
    for (const e of acked) assert.equal(results.get(e), "duplicate", `${e} re-admitted`);
    for (const e of processedEvents) assert.equal(results.get(e), "duplicate");
    const final = readSink(dir);
    assert.equal(final.processed.length, maybeCommitted + 1);
    assert.equal(new Set(final.processed.map((p) => p.event)).size, maybeCommitted + 1);
  }));
