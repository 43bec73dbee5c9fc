import assert from "node:assert/strict";
import { Redactor } from "../core/mod.ts";
import { boundedValue } from "../core/mod.ts";
import {
  emptyState,
  EVENT_WINDOW,
  type EventsLogLine,
  finalCarrierMetadata,
  MAX_ROWS_PER_GROUP,
  mergeChunk,
  projectEvent,
  type ProjectionState,
  projectLines,
  toProjection,
} from "./project.ts";
import type { ToolRow } from "./types.ts";

const redact = (t: string) => new Redactor(["s3cr3t-app-value"], "card").redact(t);
const GITHUB_TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8";

/** Lines at made-up but distinct offsets, as a tailer would hand them over. */
function lines(rows: unknown[], base = 0): EventsLogLine[] {
  return rows.map((r, i) => ({ at: base + i * 1000, text: JSON.stringify(r) }));
}

const call = (round: string | null, id: string, extra: Record<string, unknown> = {}) => ({
  type: "tool_call",
  api_call_id: round,
  tool_name: "bash",
  tool_call_id: id,
  tool_args: { command: "rm -rf /private/path", _reasoning: `why ${id}` },
  ...extra,
});
const result = (id: string, status: unknown, elapsed: unknown, body = "RESULT-BODY") => ({
  type: "tool_result",
  tool_call_id: id,
  status,
  elapsed_ms: elapsed,
  result: { output: body },
  tool_args: { command: "rm -rf /private/path" },
});
const diary = (round: string | null, text: string, extra: Record<string, unknown> = {}) => ({
  type: "diary",
  api_call_id: round,
  text,
  ...extra,
});
const carrier = (session: unknown) => ({
  type: "notification_block_injected",
  mode: "final",
  _meta: { agent_meta: { agent_state: { token_usage: { session } } } },
});

Deno.test("diary rows become text rows only when public and not blank", () => {
  assert.deepEqual(projectEvent(diary("r", "  hello \n")), { kind: "text", text: "hello" });
  assert.deepEqual(projectEvent(diary("r", "x", { visibility: null })), {
    kind: "text",
    text: "x",
  });
  assert.deepEqual(projectEvent(diary("r", "x", { visibility: "public" })), {
    kind: "text",
    text: "x",
  });
  assert.deepEqual(projectEvent(diary("r", "x", { hidden: "true" })), { kind: "text", text: "x" });
  assert.equal(projectEvent(diary("r", "x", { hidden: true })), null);
  assert.equal(projectEvent(diary("r", "x", { visibility: "private" })), null);
  assert.equal(projectEvent(diary("r", " \t\u001f\n")), null);
  assert.equal(projectEvent({ type: "diary", text: 42 }), null);
});

Deno.test("text and reasoning caps count code points and end with an ellipsis", () => {
  const emoji = "📋".repeat(600);
  const text = projectEvent(diary("r", emoji));
  assert.ok(text?.kind === "text");
  assert.equal(Array.from(text.text).length, 500);
  assert.equal(text.text, "📋".repeat(499) + "…");
  assert.deepEqual(projectEvent(diary("r", "a".repeat(500))), {
    kind: "text",
    text: "a".repeat(500),
  });

  const long = projectEvent({
    type: "tool_call",
    tool_name: "t",
    tool_args: { _reasoning: emoji },
  });
  assert.ok(long?.kind === "tool");
  assert.equal(long.reasoning, "📋".repeat(299) + "…");
  const exact = projectEvent({
    type: "tool_call",
    tool_name: "t",
    tool_args: { _reasoning: "  " + "b".repeat(298) },
  });
  assert.ok(exact?.kind === "tool");
  assert.equal(exact.reasoning, "  " + "b".repeat(298), "reasoning is not stripped");
});

Deno.test("tool rows carry only name, reasoning, join key, action and start time", () => {
  const ts = Date.UTC(2026, 0, 2, 3, 4, 5) / 1000 + 0.75;
  const row = projectEvent(
    call("r", "c1", { ts, tool_args: { action: "run", path: "/x" } }),
    redact,
  );
  assert.deepEqual(row, {
    kind: "tool",
    tool: "bash",
    reasoning: "",
    _tool_call_id: "c1",
    status: "???",
    tool_action: "run",
    started_ms: Date.UTC(2026, 0, 2, 3, 4, 5, 750),
  });
  const bare = projectEvent({
    type: "tool_call",
    tool_name: "read",
    tool_call_id: "",
    ts: true,
    tool_args: { action: "", _reasoning: 7 },
  });
  assert.deepEqual(bare, { kind: "tool", tool: "read", reasoning: "" });
  assert.equal(projectEvent({ type: "tool_call", tool_name: "", tool_args: {} }), null);
  assert.equal(projectEvent({ type: "tool_call", tool_name: "x", tool_args: [] }), null);
  assert.equal(projectEvent({ type: "tool_call", tool_name: "x" }), null);
});

Deno.test("thinking, results, telemetry and unknown rows project to nothing", () => {
  for (
    const row of [
      { type: "thinking", text: "secret plan" },
      result("c1", "success", 5),
      carrier({ api_calls: 1 }),
      { type: "llm_call", text: "x" },
      null,
      [diary("r", "x")],
      "diary",
    ]
  ) {
    assert.equal(projectEvent(row), null);
  }
});

Deno.test("final-carrier telemetry copies only the session usage keys", () => {
  const session = {
    session_cache_rate: 0.5,
    cache_miss_tokens: 10,
    cache_miss_budget: 20,
    api_calls: 3,
    context_tokens: 100,
    context_window: 1000,
    context_usage: 0.1,
    model: "private-model",
  };
  const meta = finalCarrierMetadata(carrier(session));
  const { model: _model, ...seven } = session;
  assert.deepEqual(meta, seven);
  assert.deepEqual(finalCarrierMetadata(carrier("not an object")), {});
  assert.deepEqual(finalCarrierMetadata({ type: "notification_block_injected", _meta: [] }), {});
  assert.equal(finalCarrierMetadata(diary("r", "x")), null);
  assert.equal(finalCarrierMetadata(null), null);
});

Deno.test("rows group by trimmed round id in first-seen order, capped per round and window", () => {
  const rows: unknown[] = [diary(" r1 ", "a"), diary("r2", "b"), diary("r1", "c")];
  for (let i = 0; i < 30; i++) rows.push(diary("big", `n${i}`));
  for (let i = 0; i < 9; i++) rows.push(diary(`tail${i}`, "t"));
  const p = projectLines(lines(rows));
  assert.equal(p.groups.length, EVENT_WINDOW);
  assert.deepEqual(p.groups.map((g) => g.api_call_id), [
    "big",
    ...Array.from({ length: 9 }, (_, i) => `tail${i}`),
  ]);
  assert.equal(p.groups[0]!.events.length, MAX_ROWS_PER_GROUP);
  assert.deepEqual(p.groups[0]!.events.at(-1), { kind: "text", text: "n23" });

  const small = projectLines(lines(rows.slice(0, 3)));
  assert.deepEqual(small.groups, [
    { api_call_id: "r1", events: [{ kind: "text", text: "a" }, { kind: "text", text: "c" }] },
    { api_call_id: "r2", events: [{ kind: "text", text: "b" }] },
  ]);
});

Deno.test("results set status and elapsed time; only `error` reads as failure", () => {
  const p = projectLines(lines([
    call("r", "a"),
    call("r", "b"),
    call("r", "c"),
    call("r", "d"),
    call("r", "e"),
    result("a", "success", 1250),
    result("b", "error", 500),
    result("c", "failed", -1),
    result("d", null, true),
    result("e", "ok", "12"),
  ]));
  const rows = p.groups[0]!.events as ToolRow[];
  assert.deepEqual(rows.map((r) => [r.status, r.elapsed_s]), [
    ["success", 1.25],
    ["error", 0.5],
    ["success", undefined],
    ["???", undefined],
    ["success", undefined],
  ]);
});

Deno.test("the latest result of a call decides both its status and its elapsed time", () => {
  const p = projectLines(
    lines([call("r", "a"), result("a", "success", 1000), result("a", "error", null)]),
  );
  assert.deepEqual(p.groups[0]!.events[0], {
    kind: "tool",
    tool: "bash",
    reasoning: "why a",
    _tool_call_id: "a",
    status: "error",
  });
});

Deno.test("private arguments, thinking, result bodies and tokens never reach the projection", () => {
  const p = projectLines(lines([
    call("r", "c1", {
      tool_args: { command: "cat ~/.ssh/id_rsa", _reasoning: `push with ${GITHUB_TOKEN}` },
    }),
    { type: "thinking", api_call_id: "r", text: "THINKING-TEXT" },
    result("c1", "ok", 2300, "RESULT-BODY"),
    diary("r", "done, Bearer t-g1044ab7cdef.XYZ0123456789abcd"),
  ]));
  const json = JSON.stringify(p.groups);
  for (const leak of ["id_rsa", "command", "THINKING-TEXT", "RESULT-BODY", "g1044ab7cdef"]) {
    assert.ok(!json.includes(leak), `${leak} leaked`);
  }
  assert.ok(!json.includes(GITHUB_TOKEN), "GitHub token in reasoning leaked");
  const row = p.groups[0]!.events[0] as ToolRow;
  assert.equal(row.status, "success");
  assert.equal(row.elapsed_s, 2.3);
});

Deno.test("rows without a round id from different chunks never share a group", () => {
  const first = mergeChunk(emptyState(), [{ at: 0, text: JSON.stringify(diary(null, "one")) }]);
  const second = mergeChunk(first, [{ at: 40, text: JSON.stringify(diary("", "two")) }]);
  assert.deepEqual(second.groups, [
    { api_call_id: "legacy:0", events: [{ kind: "text", text: "one" }] },
    { api_call_id: "legacy:40", events: [{ kind: "text", text: "two" }] },
  ]);
});

Deno.test("a late result updates an older row; telemetry changes only with a carrier", () => {
  const a = projectLines(lines([carrier({ api_calls: 1 }), call("r1", "c1"), diary("r2", "x")]));
  const before = structuredClone(toProjection(a));
  const b = mergeChunk(a, lines([result("c1", "error", 500)], 10_000));
  assert.deepEqual(toProjection(a), before, "the previous state is left as it was");
  assert.deepEqual(b.groups[0]!.events[0], {
    kind: "tool",
    tool: "bash",
    reasoning: "why c1",
    _tool_call_id: "c1",
    status: "error",
    elapsed_s: 0.5,
  });
  assert.deepEqual(b.metadata, { api_calls: 1 });
  const c = mergeChunk(b, lines([{ type: "notification_block_injected" }], 20_000));
  assert.deepEqual(c.metadata, {});
  const fromSnapshot = mergeChunk(toProjection(b), lines([diary("r2", "y")], 30_000));
  assert.deepEqual(fromSnapshot.groups[1]!.events.length, 2);
});

Deno.test("a result logged before its call still joins when the call arrives later", () => {
  const a = projectLines(lines([result("c9", "success", 10)]));
  const b = mergeChunk(a, lines([call("r", "c9")], 5000));
  assert.deepEqual(
    [(b.groups[0]!.events[0] as ToolRow).status, (b.groups[0]!.events[0] as ToolRow).elapsed_s],
    ["success", 0.01],
  );
});

/** A small deterministic generator, so failures reproduce. */
function rng(seed: number) {
  let s = seed >>> 0;
  return (n: number) => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s % n;
  };
}

function randomRow(next: (n: number) => number, i: number): string {
  const round = next(6) === 0 ? null : `r${next(14)}`; // few ids: rounds recur and get evicted
  const id = `c${next(20)}`;
  switch (next(9)) {
    case 0:
      return JSON.stringify(diary(round, `text ${i}`));
    case 1:
    case 2:
      return JSON.stringify(call(round, id, { ts: 1_700_000_000 + i }));
    case 3:
      return JSON.stringify(result(id, ["success", "error", "ok", null][next(4)], next(3000)));
    case 4:
      return JSON.stringify(result(id, "success", next(2) ? undefined : 7));
    case 5:
      return JSON.stringify(carrier(next(2) ? { api_calls: i } : null));
    case 6:
      return JSON.stringify({ type: "thinking", api_call_id: round, text: "hidden" });
    case 7:
      return next(2) ? "not json {" : "[1,2]";
    default:
      return "";
  }
}

Deno.test("merging chunk by chunk equals projecting every line in one pass", () => {
  for (let seed = 1; seed <= 200; seed++) {
    const next = rng(seed);
    const all: EventsLogLine[] = Array.from(
      { length: 20 + next(160) },
      (_, i) => ({ at: i * 100, text: randomRow(next, i) }),
    );
    const whole = projectLines(all, redact);
    let state: ProjectionState = emptyState();
    for (let p = 0; p < all.length;) {
      const size = 1 + next(25);
      state = mergeChunk(state, all.slice(p, p + size), redact);
      p += size;
    }
    assert.deepEqual(toProjection(state), toProjection(whole), `seed ${seed}`);
  }
});

Deno.test("every text a row keeps is redacted with the registered secrets, name and action too", () => {
  const row = projectEvent({
    type: "tool_call",
    tool_name: `s3cr3t-app-value ${GITHUB_TOKEN}`,
    tool_call_id: "c1",
    tool_args: {
      action: `export GITHUB_TOKEN=${GITHUB_TOKEN}`,
      _reasoning: "use --secret s3cr3t-app-value and Basic dXNlcjpwYXNzd29yZA==",
    },
  }, redact);
  assert.deepEqual(row, {
    kind: "tool",
    tool: "<REDACTED:secret> <REDACTED:github_token>",
    reasoning: "use --secret <REDACTED:secret> and Basic <REDACTED:basic_auth>",
    _tool_call_id: "c1",
    status: "???",
    tool_action: "export GITHUB_TOKEN=<REDACTED:github_token>",
  });
  const text = projectEvent({ type: "diary", text: "key s3cr3t-app-value" }, redact);
  assert.deepEqual(text, { kind: "text", text: "key <REDACTED:secret>" });
});

Deno.test("rows are made human: no raw JSON, content tags, keys or ids", () => {
  const text = projectEvent({
    type: "diary",
    text: 'Answering Alice: [card action: button] {"demo": "approve"}',
  });
  assert.deepEqual(text, { kind: "text", text: "Answering Alice: [card action: button]" });
  const echo = projectEvent({
    type: "diary",
    text: 'Alice sent ‹file key="file_v3_00ab12" name="plan.pdf"/› in om_emu_000123',
  });
  assert.deepEqual(echo, { kind: "text", text: "Alice sent [file: plan.pdf] in [message]" });
  // A row that is nothing but JSON shows nothing.
  assert.equal(projectEvent({ type: "diary", text: '{"a": [1, {"b": 2}]}' }), null);
});

Deno.test("telemetry values nested too deep are dropped, so a hostile row cannot overflow later copies", () => {
  for (const depth of [3000, 100_000]) {
    const deep = "[".repeat(depth) + "]".repeat(depth);
    const carrier = `{"type":"notification_block_injected","_meta":{"agent_meta":{"agent_state":` +
      `{"token_usage":{"session":{"api_calls":${deep},"context_usage":0.5}}}}}}`;
    const state = mergeChunk(emptyState(), [{ at: 0, text: carrier }]);
    assert.deepEqual(state.metadata, { context_usage: 0.5 });
    // Copies and comparisons of the state never recurse into the deep value.
    assert.deepEqual(toProjection(state).metadata, { context_usage: 0.5 });
  }
  assert.deepEqual(boundedValue({ a: [1, { b: 2 }] }, 3), { a: [1, { b: 2 }] });
  assert.equal(boundedValue({ a: [1, { b: [2] }] }, 3), undefined);
});
