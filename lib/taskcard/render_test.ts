import { deepEqual, equal, ok } from "node:assert/strict";
import {
  DIVIDER,
  formatCount,
  formatMetadata,
  formatRows,
  HEADER,
  otherStepsLine,
  renderEventGroups,
  taskCardFooter,
  TEXT_LIMIT,
} from "./render.ts";
import { messagesFor } from "../../cards/mod.ts";
import type { Group, Row, ToolRow } from "./types.ts";

const FOOTER_1 =
  "Don't reply to this Task Card. Use /taskcard on|off to toggle; /taskcard N sets normal rows (1-10, current: 1).";
/** 02:30:00 in Shanghai (18:30 UTC the day before). */
const NOW = { ms: Date.UTC(2026, 0, 1, 18, 30, 0), zone: "Asia/Shanghai" };
/** 12:00:00 in Shanghai. */
const NOON = Date.UTC(2026, 0, 2, 4, 0, 0);
const cps = (s: string) => Array.from(s);

function tool(fields: Partial<ToolRow> = {}): ToolRow {
  return { kind: "tool", tool: "bash", reasoning: "build", ...fields };
}

const GOLDEN_GROUP: Group = {
  api_call_id: "call-1",
  events: [
    { kind: "text", text: "public response" },
    tool({
      tool_action: "run",
      status: "???",
      started_ms: NOON,
      _tool_call_id: "tc-1",
    }),
  ],
};

Deno.test("renderEventGroups() reproduces the reference frame byte for byte", () => {
  const frame = renderEventGroups(
    [GOLDEN_GROUP],
    1,
    { agent_lifecycle: "active", api_calls: 2 },
    NOW,
  );
  equal(
    frame,
    [
      "📋 ACTIVITIES",
      "──────────",
      "• public response",
      "• bash.run: build (0s, ???) · 12:00:00",
      "",
      FOOTER_1,
      "agent · active · session · calls 2",
      "Last Updated: 02:30:00 (Asia/Shanghai)",
    ].join("\n"),
  );
});

Deno.test("renderEventGroups() without any group shows header, footer and time only", () => {
  equal(
    renderEventGroups([], 1, null, NOW),
    `📋 ACTIVITIES\n\n${FOOTER_1}\nLast Updated: 02:30:00 (Asia/Shanghai)`,
  );
  // A row that renders to nothing (blank after trimming) is no row at all.
  equal(
    formatRows([{ kind: "text", text: " \n\t" }], { api_calls: 3 }, 1, NOW),
    `📋 ACTIVITIES\n\n${FOOTER_1}\nsession · calls 3\nLast Updated: 02:30:00 (Asia/Shanghai)`,
  );
});

Deno.test("a count of steps elsewhere shows as one neutral line under the rows, none for 0", () => {
  const steps = otherStepsLine(2);
  equal(steps, "Steps in other conversations: 2");
  equal(
    renderEventGroups([], 1, null, NOW, undefined, 2),
    `📋 ACTIVITIES\n${steps}\n\n${FOOTER_1}\nLast Updated: 02:30:00 (Asia/Shanghai)`,
  );
  const lines = renderEventGroups([GOLDEN_GROUP], 1, null, NOW, undefined, 2).split("\n");
  deepEqual(lines.slice(2, 5), [
    "• public response",
    "• bash.run: build (0s, ???) · 12:00:00",
    steps,
  ]);
  equal(
    renderEventGroups([GOLDEN_GROUP], 1, null, NOW, undefined, 0),
    renderEventGroups([GOLDEN_GROUP], 1, null, NOW),
  );
});

Deno.test("the constants and the footer are exact", () => {
  equal(HEADER, "📋 ACTIVITIES");
  equal(DIVIDER, "\u2500".repeat(10));
  equal(TEXT_LIMIT, 3500);
  equal(taskCardFooter(1), FOOTER_1);
  ok(taskCardFooter(7).endsWith("sets normal rows (1-10, current: 7)."));
});

Deno.test("render re-exports the telemetry formatters", () => {
  equal(formatCount(170631), "170.6k");
  deepEqual(formatMetadata({ api_calls: 13 }), ["session · calls 13"]);
});

function toolLine(fields: Record<string, unknown>): string {
  const frame = formatRows([{ ...tool(), ...fields } as ToolRow], null, 1, NOW);
  return frame.split("\n")[1]!;
}

Deno.test("elapsed seconds are truncated to whole seconds and never show garbage", () => {
  const cases: [unknown, string][] = [
    [8.99, "8s"],
    [0, "0s"],
    [2.3, "2s"],
    [59.999, "59s"],
    [-4, "0s"],
    ["3.7", "3s"],
    [" 12 ", "12s"],
    ["abc", "0s"],
    [Number.NaN, "0s"],
    [Infinity, "0s"],
    [null, "0s"],
    [{}, "0s"],
    [1e21, "1000000000000000000000s"],
  ];
  for (const [elapsed, shown] of cases) {
    equal(toolLine({ elapsed_s: elapsed }), `• bash: build (${shown})`, String(elapsed));
  }
});

Deno.test("a tool row shows a check mark on success and keeps only known statuses", () => {
  equal(toolLine({ status: "success", elapsed_s: 2.3 }), "✓ bash: build (2s, success)");
  equal(toolLine({ status: "error", elapsed_s: 1 }), "• bash: build (1s, error)");
  equal(toolLine({ status: "???" }), "• bash: build (0s, ???)");
  equal(toolLine({ status: "failed" }), "• bash: build (0s)");
  equal(toolLine({ done: true }), "✓ bash: build (0s)");
  equal(toolLine({ done: [] }), "• bash: build (0s)");
});

Deno.test("a tool row's label is tool.action, the tool alone, or absent", () => {
  equal(
    toolLine({ tool_action: "run", started_ms: NOON }),
    "• bash.run: build (0s) · 12:00:00",
  );
  equal(toolLine({ tool_action: "" }), "• bash: build (0s)");
  equal(toolLine({ tool: "", reasoning: "thinking" }), "• thinking (0s)");
  equal(toolLine({ started_ms: "12" }), "• bash: build (0s)");
});

Deno.test("telemetry lines sit between the footer and the time, at most 2 lines of 150", () => {
  const meta = {
    model: "m".repeat(120),
    session_cache_rate: 0.5,
    api_calls: 1,
    context_tokens: 10,
    context_usage: 0.1,
  };
  const lines = renderEventGroups([GOLDEN_GROUP], 1, meta, NOW).split("\n");
  const footerAt = lines.indexOf(FOOTER_1);
  const metaLines = lines.slice(footerAt + 1, -1);
  ok(metaLines.length >= 1 && metaLines.length <= 2);
  deepEqual(metaLines, formatMetadata(meta));
  ok(cps(metaLines.join("\n")).length <= 150);
  ok(lines.at(-1)!.startsWith("Last Updated: "));
});

Deno.test("reasoning and text are redacted again when rendered", () => {
  const token = "ghp_" + "Z9y8X7w6".repeat(5);
  const group: Group = {
    api_call_id: "c",
    events: [
      { kind: "text", text: `pushed with ${token}` },
      tool({ reasoning: `clone using ${token}` }),
    ],
  };
  const frame = renderEventGroups([group], 1, null, NOW);
  ok(!frame.includes(token), frame);
  ok(frame.includes("• pushed with <REDACTED:github_token>\n"));
  ok(frame.includes("• bash: clone using <REDACTED:github_token> (0s)"));
});

Deno.test("text rows are trimmed like Python trims them, and cut to 500 code points", () => {
  const frame = formatRows([{ kind: "text", text: "\u001f\u3000hi\u0085 " }], null, 1, NOW);
  equal(frame.split("\n")[1], "• hi");
  // A byte-order mark is not whitespace to Python and stays.
  equal(
    formatRows([{ kind: "text", text: "\ufeffhi" }], null, 1, NOW).split("\n")[1],
    "• \ufeffhi",
  );
  const long = formatRows([{ kind: "text", text: "a".repeat(700) }], null, 1, NOW);
  equal(long.split("\n")[1], `• ${"a".repeat(500)}`);
});

Deno.test("rows keep their order and non-object rows are skipped", () => {
  const rows = [
    tool({ reasoning: "first" }),
    null,
    "junk",
    { kind: "divider" },
    { kind: "text", text: "second" },
    tool({ reasoning: "third" }),
  ] as unknown as Row[];
  deepEqual(formatRows(rows, null, 1, NOW).split("\n").slice(1, 5), [
    "• bash: first (0s)",
    DIVIDER,
    "• second",
    "• bash: third (0s)",
  ]);
});

Deno.test("only the last N rounds are shown, each after a divider", () => {
  const groups: Group[] = ["a", "b", "c"].map((id) => ({
    api_call_id: id,
    events: [{ kind: "text", text: `round ${id}` }],
  }));
  const frame = renderEventGroups(groups, 2, null, NOW);
  deepEqual(frame.split("\n").slice(0, 5), [HEADER, DIVIDER, "• round b", DIVIDER, "• round c"]);
  ok(frame.includes("current: 2)."));
});

Deno.test("many rows share the space: every excerpt gets the same cap and ends with …", () => {
  const rows = Array.from({ length: 20 }, () =>
    tool({
      tool_action: "run",
      reasoning: "r".repeat(500),
      status: "success",
      elapsed_s: 1,
      started_ms: NOON,
    }));
  const frame = formatRows(rows, null, 1, NOW);
  // Fixed part 164 + 20 × (12 + 25 + 2) scaffolding leaves 2556 / 20 → 127.
  const line = `✓ bash.run: ${"r".repeat(127)}… (1s, success) · 12:00:00`;
  deepEqual(frame.split("\n").slice(1, 21), Array(20).fill(line));
  ok(cps(frame).length <= TEXT_LIMIT);
});

Deno.test("a short excerpt under the cap is shown whole, without …", () => {
  equal(toolLine({ reasoning: "r".repeat(500) }), `• bash: ${"r".repeat(500)} (0s)`);
  equal(toolLine({ reasoning: "r".repeat(501) }), `• bash: ${"r".repeat(500)}… (0s)`);
});

Deno.test("long response texts count fully, so a crowded frame shows only …", () => {
  const rows: Row[] = Array.from({ length: 10 }, () => ({ kind: "text", text: "a".repeat(400) }));
  const lines = formatRows(rows, null, 1, NOW).split("\n");
  deepEqual(lines.slice(1, 11), Array(10).fill("• …"));
});

Deno.test("budgets count code points: the header's emoji and astral reasoning count as one", () => {
  // 300 dividers take 3300 and the fixed lines 164; one row "• t: … (0s)"
  // adds 5 + 5 + 2, leaving exactly 24 (23 if the emoji counted twice).
  const rows: (Row | { kind: "divider" })[] = Array(300).fill({ kind: "divider" });
  rows.push(tool({ tool: "t", reasoning: "😀".repeat(40) }));
  const last = formatRows(rows, null, 1, NOW).split("\n")[301]!;
  equal(last, `• t: ${"😀".repeat(24)}… (0s)`);
  // Alone, an astral reasoning gets the full 500 code points.
  equal(toolLine({ reasoning: "😀".repeat(600) }), `• bash: ${"😀".repeat(500)}… (0s)`);
});

Deno.test("the frame is hard-cut to 3500 code points, without …", () => {
  const groups: Group[] = Array.from({ length: 10 }, (_, g) => ({
    api_call_id: `g${g}`,
    events: Array.from({ length: 24 }, () => tool({ tool: "😀tool", reasoning: "x".repeat(300) })),
  }));
  const frame = renderEventGroups(groups, 10, null, NOW);
  equal(cps(frame).length, TEXT_LIMIT);
  ok(frame.length > TEXT_LIMIT, "UTF-16 length is larger: the cut counted code points");
  const rows = groups.flatMap((g) => [{ kind: "divider" as const }, ...g.events]);
  const full = formatRows(rows, null, 10, NOW);
  equal(frame, cps(full).slice(0, TEXT_LIMIT).join(""));
  ok(!frame.includes("Last Updated: "));
});

Deno.test("a zh or wen frame is Chinese throughout: header, statuses, telemetry, footer, time", () => {
  const meta = { agent_lifecycle: "stuck", api_calls: 2, context_usage: 0.5 };
  const zh = { t: messagesFor("zh").task, redact: (s: string) => s };
  deepEqual(renderEventGroups([GOLDEN_GROUP], 1, meta, NOW, zh).split("\n"), [
    "📋 动态",
    "──────────",
    "• public response",
    "• bash.run: build (0s, 进行中) · 12:00:00",
    "",
    "请勿回复此任务卡片。/taskcard on|off 显示或隐藏；/taskcard N 设置常规行数（1–10，当前：1）。",
    "智能体 · 卡住 · 可尝试 /refresh · 会话 · 调用 2",
    "上下文 · 50%",
    "最后更新：02:30:00 (Asia/Shanghai)",
  ]);
  const wen = { t: messagesFor("wen").task, redact: (s: string) => s };
  const frame = renderEventGroups([GOLDEN_GROUP], 1, meta, NOW, wen);
  ok(frame.startsWith("📋 行迹\n") && frame.endsWith("\n更于：02:30:00 (Asia/Shanghai)"), frame);
  ok(
    !/[A-Za-z]{4,}/.test(
      frame.replace(/bash\.run|build|public response|taskcard|refresh|Asia\/Shanghai/g, ""),
    ),
    frame,
  );
});

Deno.test("every text a row shows passes the redactor, tool name and action included", () => {
  const secret = "ghp_" + "a1B2".repeat(9);
  const rows: Row[] = [
    { kind: "text", text: `said ${secret}` },
    tool({ tool: secret, tool_action: `export GITHUB_TOKEN=${secret}`, reasoning: secret }),
  ];
  const frame = formatRows(rows, null, 1, NOW);
  ok(!frame.includes(secret), frame);
  ok(frame.includes("• said <REDACTED:github_token>"), frame);
  ok(frame.includes("export GITHUB_TOKEN=<REDACTED:github_token>"), frame);
});
