import assert from "node:assert/strict";
import { join } from "node:path";
import { createEventsLogTailer, type EventsLogTailerOptions } from "./events_log.ts";
import type { ToolRow } from "./types.ts";
const GITHUB_TOKEN = "ghp_" + "Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2";

const line = (row: unknown) => JSON.stringify(row) + "\n";
const call = (round: string, id: string, args: Record<string, unknown> = {}) =>
  line({
    type: "tool_call",
    api_call_id: round,
    tool_name: "bash",
    tool_call_id: id,
    ts: 1_767_225_600, // 2026-01-01 00:00:00 UTC
    tool_args: { _reasoning: "check", ...args },
  });
const result = (id: string, status: string, elapsed: number, body = "RESULT-BODY") =>
  line({ type: "tool_result", tool_call_id: id, status, elapsed_ms: elapsed, result: body });
const diary = (round: string | null, text: string) =>
  line({ type: "diary", api_call_id: round, text });

/** A temp events log, a tailer on it, and helpers to change the file. */
async function rig(initial: string | null, options: Partial<EventsLogTailerOptions> = {}) {
  const dir = await Deno.makeTempDir({ prefix: "taskcard-events-log-" });
  const path = join(dir, "events.jsonl");
  if (initial !== null) await Deno.writeTextFile(path, initial);
  const tailer = createEventsLogTailer({ path, ...options });
  return {
    dir,
    path,
    tailer,
    append: (text: string) => Deno.writeTextFile(path, text, { append: true }),
    texts: () =>
      tailer.snapshot().groups.flatMap((g) =>
        g.events.map((e) => e.kind === "text" ? e.text : `${e.tool}:${e.status}`)
      ),
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}

Deno.test("start projects complete lines only; completing the last line shows it", async () => {
  await using j = await rig(
    call("r1", "c1") + result("c1", "success", 1250) +
      '{"type":"diary","api_call_id":"r2","text":"done"}',
  );
  await j.tailer.start();
  const first = j.tailer.snapshot();
  assert.equal(first.groups.length, 1);
  assert.deepEqual(first.groups[0], {
    api_call_id: "r1",
    events: [{
      kind: "tool",
      tool: "bash",
      reasoning: "check",
      _tool_call_id: "c1",
      status: "success",
      started_ms: Date.UTC(2026, 0, 1),
      elapsed_s: 1.25,
    }],
  });
  assert.equal(await j.tailer.pollOnce(), false, "the unfinished line is not projected");
  await j.append("\n");
  assert.equal(await j.tailer.pollOnce(), true);
  assert.deepEqual(j.tailer.snapshot().groups.at(-1)!.events, [{ kind: "text", text: "done" }]);
  assert.equal(await j.tailer.pollOnce(), false);
});

Deno.test("a pending call turns into an error with its elapsed time when its result lands", async () => {
  await using j = await rig(call("r1", "c1") + diary("r2", "later round"));
  await j.tailer.start();
  assert.equal((j.tailer.snapshot().groups[0]!.events[0] as ToolRow).status, "???");
  await j.append(result("c1", "error", 500));
  assert.equal(await j.tailer.pollOnce(), true);
  const row = j.tailer.snapshot().groups[0]!.events[0] as ToolRow;
  assert.deepEqual([row.status, row.elapsed_s], ["error", 0.5]);
  assert.equal(await j.tailer.pollOnce(), false);
});

Deno.test("a poll reports a change exactly when the snapshot changed", async () => {
  await using j = await rig(call("r1", "c1") + line({ type: "notification_block_injected" }));
  await j.tailer.start();
  const steps: [string, boolean][] = [
    [line({ type: "thinking", api_call_id: "r1", text: "hmm" }), false],
    [result("nobody", "success", 5), false],
    [line({ type: "notification_block_injected" }), false], // `{}` again
    [
      line({
        type: "notification_block_injected",
        _meta: { agent_meta: { agent_state: { token_usage: { session: { api_calls: 2 } } } } },
      }),
      true,
    ],
    ["\n\n[1]\n42\nnot json\n", false],
    [diary("r1", "hi"), true],
    [result("c1", "ok", 2300), true],
    [result("c1", "ok", 2300), false],
  ];
  for (const [text, changed] of steps) {
    const before = j.tailer.snapshot();
    await j.append(text);
    assert.equal(await j.tailer.pollOnce(), changed, text);
    assert.equal(JSON.stringify(j.tailer.snapshot()) !== JSON.stringify(before), changed, text);
  }
  assert.deepEqual(j.tailer.snapshot().metadata, { api_calls: 2 });
  const row = j.tailer.snapshot().groups[0]!.events[0] as ToolRow;
  assert.deepEqual([row.status, row.elapsed_s], ["success", 2.3]);
});

Deno.test("private args, thinking, result bodies and tokens never reach the snapshot", async () => {
  await using j = await rig(
    call("r1", "c1", { command: "cat /etc/shadow", _reasoning: `use ${GITHUB_TOKEN}` }) +
      line({ type: "thinking", api_call_id: "r1", text: "THINKING-TEXT" }),
  );
  await j.tailer.start();
  await j.append(result("c1", "ok", 2300, "RESULT-BODY") + diary("r1", "ok"));
  assert.equal(await j.tailer.pollOnce(), true);
  const json = JSON.stringify(j.tailer.snapshot());
  for (const leak of ["/etc/shadow", "command", "THINKING-TEXT", "RESULT-BODY"]) {
    assert.ok(!json.includes(leak), `${leak} leaked`);
  }
  assert.ok(!json.includes(GITHUB_TOKEN), "GitHub token in reasoning leaked");
  const row = j.tailer.snapshot().groups[0]!.events[0] as ToolRow;
  assert.deepEqual([row.status, row.elapsed_s], ["success", 2.3]);
});

Deno.test("a truncated events log is read again from its start", async () => {
  await using j = await rig(diary("r1", "old one") + diary("r2", "old two"));
  await j.tailer.start();
  await Deno.writeTextFile(j.path, diary("r9", "new"));
  assert.equal(await j.tailer.pollOnce(), true);
  assert.deepEqual(j.texts(), ["new"]);
  await j.append(diary("r10", "more"));
  assert.equal(await j.tailer.pollOnce(), true);
  assert.deepEqual(j.texts(), ["new", "more"]);
});

Deno.test("a rotated events log (renamed away, new file in its place) is read afresh", async () => {
  await using j = await rig(diary("r1", "before rotation"));
  await j.tailer.start();
  await Deno.rename(j.path, j.path + ".1");
  // Longer than the old file, so only the changed inode can tell it is a new file.
  await Deno.writeTextFile(j.path, diary("r2", "after rotation, a much longer line than before"));
  assert.equal(await j.tailer.pollOnce(), true);
  assert.deepEqual(j.texts(), ["after rotation, a much longer line than before"]);
  assert.equal(await j.tailer.pollOnce(), false);
});

Deno.test("a deleted events log keeps the last snapshot until a file reappears", async () => {
  await using j = await rig(diary("r1", "kept"));
  await j.tailer.start();
  await Deno.remove(j.path);
  assert.equal(await j.tailer.pollOnce(), false);
  assert.deepEqual(j.texts(), ["kept"]);
  assert.equal(await j.tailer.pollOnce(), false);
  await Deno.writeTextFile(j.path, diary("r2", "back again, longer than the first file"));
  assert.equal(await j.tailer.pollOnce(), true);
  assert.deepEqual(j.texts(), ["back again, longer than the first file"]);
});

Deno.test("an events log missing at start is projected once it appears", async () => {
  await using j = await rig(null);
  await j.tailer.start();
  assert.deepEqual(j.tailer.snapshot(), { groups: [], metadata: null });
  assert.equal(await j.tailer.pollOnce(), false);
  await j.append(diary("r1", "first"));
  assert.equal(await j.tailer.pollOnce(), true);
  assert.deepEqual(j.texts(), ["first"]);
});

Deno.test("a burst larger than one poll may read is skipped to the tail", async () => {
  const bounds = { maxChunkBytes: 4096, tailBytes: 1024, maxTailBytes: 2048 };
  await using j = await rig(call("r1", "c1"), bounds);
  await j.tailer.start();
  const filler = line({ type: "thinking", text: "x".repeat(900) }).repeat(20);
  // Read in full, the result would mark c1 done; skipped to the tail, r1 is simply gone.
  await j.append(result("c1", "success", 10) + filler + diary("r2", "late"));
  assert.equal(await j.tailer.pollOnce(), true);
  assert.deepEqual(j.texts(), ["late"]);
  await j.append(diary("r3", "next"));
  assert.equal(await j.tailer.pollOnce(), true);
  assert.deepEqual(j.texts(), ["late", "next"]);
});

Deno.test("appends up to the bound are merged, not reloaded", async () => {
  const bounds = { maxChunkBytes: 4096, tailBytes: 1024, maxTailBytes: 2048 };
  await using j = await rig(call("r1", "c1"), bounds);
  await j.tailer.start();
  const filler = line({ type: "thinking", text: "x".repeat(900) }).repeat(3);
  await j.append(result("c1", "success", 10) + filler + diary("r2", "late"));
  assert.equal(await j.tailer.pollOnce(), true);
  assert.deepEqual(j.texts(), ["bash:success", "late"]);
});

Deno.test("the default bound is 4 MiB of appended bytes", async () => {
  // A tail window of 1 KiB makes a reload visibly lose r1; a merge keeps it.
  const bounds = { tailBytes: 1024, maxTailBytes: 1024 };
  await using j = await rig(diary("r1", "start"), bounds);
  await j.tailer.start();
  const row = line({ type: "thinking", text: "y".repeat(1000) });
  const under = row.repeat(Math.floor((4 * 1024 * 1024 - 200) / row.length));
  await j.append(under + diary("r2", "merged"));
  assert.equal(await j.tailer.pollOnce(), true);
  assert.deepEqual(j.texts(), ["start", "merged"]);
  await j.append(row.repeat(Math.ceil((4 * 1024 * 1024) / row.length)) + diary("r3", "reloaded"));
  assert.equal(await j.tailer.pollOnce(), true);
  assert.deepEqual(j.texts(), ["reloaded"]);
});

Deno.test("rows without a round id appended in different polls stay apart", async () => {
  await using j = await rig(diary(null, "one"));
  await j.tailer.start();
  await j.append(diary(null, "two"));
  assert.equal(await j.tailer.pollOnce(), true);
  const groups = j.tailer.snapshot().groups;
  assert.equal(groups.length, 2);
  assert.notEqual(groups[0]!.api_call_id, groups[1]!.api_call_id);
  assert.deepEqual(j.texts(), ["one", "two"]);
});

Deno.test("start widens its tail until it holds the last ten rounds", async () => {
  const big = (i: number) =>
    line({ type: "diary", api_call_id: `r${i}`, text: `t${i}`, pad: "p".repeat(10_000) });
  await using j = await rig(Array.from({ length: 14 }, (_, i) => big(i)).join(""));
  await j.tailer.start();
  assert.deepEqual(j.texts(), Array.from({ length: 10 }, (_, i) => `t${i + 4}`));
});

Deno.test("a tail window starting on a line boundary keeps that line", async () => {
  const second = diary("r2", "second");
  await using j = await rig(diary("r1", "first") + second, {
    tailBytes: new TextEncoder().encode(second).length,
    maxTailBytes: 1,
  });
  await j.tailer.start();
  assert.deepEqual(j.texts(), ["second"]);
});

Deno.test("a tail window starting mid-line drops that partial line", async () => {
  const second = diary("r2", "second");
  await using j = await rig(diary("r1", "first") + second, {
    tailBytes: new TextEncoder().encode(second).length + 5,
    maxTailBytes: 1,
  });
  await j.tailer.start();
  assert.deepEqual(j.texts(), ["second"]);
});

Deno.test("invalid UTF-8, invalid JSON and non-object lines are skipped", async () => {
  const bytes = new Uint8Array([0xff, 0xfe, 0x0a]);
  await using j = await rig(null);
  await Deno.writeFile(j.path, bytes);
  await j.append('{"type":"diary","api_call_id":"r1","text":"a');
  await Deno.writeFile(j.path, new Uint8Array([0xc3, 0x28]), { append: true });
  await j.append('"}\n' + "{broken\n[]\n\n" + diary("r1", "fine"));
  await j.tailer.start();
  assert.deepEqual(j.texts(), ["a\ufffd(", "fine"]);
});

Deno.test("the rest of a line split across polls is joined before projecting", async () => {
  await using j = await rig(diary("r1", "a"));
  await j.tailer.start();
  const whole = diary("r2", "split line");
  await j.append(whole.slice(0, 10));
  assert.equal(await j.tailer.pollOnce(), false);
  await j.append(whole.slice(10) + diary("r3", "after"));
  assert.equal(await j.tailer.pollOnce(), true);
  assert.deepEqual(j.texts(), ["a", "split line", "after"]);
});

Deno.test("overlapping polls do not read the same bytes twice", async () => {
  await using j = await rig(diary("r1", "a"));
  await j.tailer.start();
  await j.append(diary("r2", "b"));
  const outcomes = await Promise.all([j.tailer.pollOnce(), j.tailer.pollOnce()]);
  assert.deepEqual(outcomes, [true, false]);
  assert.deepEqual(j.texts(), ["a", "b"]);
});

Deno.test("snapshots are deep copies", async () => {
  await using j = await rig(call("r1", "c1"));
  await j.tailer.start();
  const snap = j.tailer.snapshot();
  (snap.groups[0]!.events[0] as ToolRow).status = "error";
  snap.groups.pop();
  assert.equal((j.tailer.snapshot().groups[0]!.events[0] as ToolRow).status, "???");
});

Deno.test("onLines is told each poll's appended lines, parsed, and never a load's", async () => {
  const told: { at: number; value: unknown }[][] = [];
  await using r = await rig(diary("r1", "at start"), {
    onLines: (lines) => told.push(lines.map((l) => ({ at: l.at, value: l.value }))),
  });
  await r.tailer.start();
  assert.deepEqual(told, []);
  const start = (await Deno.stat(r.path)).size;
  await r.append(diary("r2", "appended") + "not json\n" + '{"type":"diary"');
  await r.tailer.pollOnce();
  assert.deepEqual(told, [[
    { at: start, value: { type: "diary", api_call_id: "r2", text: "appended" } },
    { at: start + diary("r2", "appended").length, value: null },
  ]]);
  assert.deepEqual(r.texts(), ["at start", "appended"]);
});
