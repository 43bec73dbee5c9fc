import { deepEqual, equal } from "node:assert/strict";
import {
  formatCount,
  formatMetadata,
  formatPercent,
  METADATA_MAX_CHARS,
  METADATA_MAX_LINES,
} from "./metadata.ts";

const cpLength = (s: string) => Array.from(s).length;

Deno.test("formatCount() abbreviates with tenths and never promotes to the next unit", () => {
  const cases: [unknown, string][] = [
    [0, "0"],
    [999, "999"],
    [1_000, "1.0k"],
    [1_049, "1.0k"],
    [1_050, "1.1k"],
    [170_631, "170.6k"],
    [999_950, "1000.0k"],
    [1_000_000, "1.0M"],
    [272_000, "272.0k"],
    [2_500_000_000, "2.5B"],
    [1_000_000_000_000, "1.0T"],
    [999_949_999_999_999, "999.9T"],
    [1e30, "999.9T"],
    [10n ** 40n, "999.9T"],
  ];
  for (const [value, shown] of cases) equal(formatCount(value), shown, String(value));
});

Deno.test("formatCount() refuses anything but a non-negative integer", () => {
  for (
    const value of [-1, 1.5, Number.NaN, Infinity, "12", true, false, null, undefined, {}, -1n]
  ) {
    equal(formatCount(value), null, String(value));
  }
});

// Expected texts printed by CPython's format(v, ".1%") and format(v, ".0%").
const PYTHON_PERCENTS: [number, string, string][] = [
  [0, "0.0%", "0%"],
  [1, "100.0%", "100%"],
  [0.005, "0.5%", "0%"],
  [0.015, "1.5%", "2%"],
  [0.025, "2.5%", "2%"],
  [0.035, "3.5%", "4%"],
  [0.045, "4.5%", "4%"],
  [0.125, "12.5%", "12%"],
  [0.135, "13.5%", "14%"],
  [0.62958, "63.0%", "63%"],
  [0.87803, "87.8%", "88%"],
  [0.0005, "0.1%", "0%"],
  [0.00125, "0.1%", "0%"],
  [0.0015, "0.1%", "0%"],
  [0.5, "50.0%", "50%"],
  [0.995, "99.5%", "100%"],
  [0.9995, "100.0%", "100%"],
  [0.99949, "99.9%", "100%"],
  [1e-300, "0.0%", "0%"],
  [5e-324, "0.0%", "0%"],
  [0.285, "28.5%", "28%"],
  [0.875, "87.5%", "88%"],
  [0.375, "37.5%", "38%"],
  [0.0375, "3.8%", "4%"],
  [0.165, "16.5%", "16%"],
  [0.5252, "52.5%", "53%"],
  [0.7645708662128131, "76.5%", "76%"],
  [0.8754778118308882, "87.5%", "88%"],
];

Deno.test("formatPercent() prints what Python's percent format prints, ties to even", () => {
  for (const [ratio, oneDecimal, noDecimal] of PYTHON_PERCENTS) {
    equal(formatPercent(ratio, 1), oneDecimal, `${ratio} .1%`);
    equal(formatPercent(ratio, 0), noDecimal, `${ratio} .0%`);
  }
});

Deno.test("formatMetadata() renders the session and context telemetry lines", () => {
  deepEqual(
    formatMetadata({
      session_cache_rate: 0.87803,
      cache_miss_tokens: 170631,
      cache_miss_budget: 1000000,
      api_calls: 13,
      context_tokens: 171246,
      context_window: 272000,
      context_usage: 0.62958,
    }),
    ["session · cache 87.8% · miss 170.6k/1.0M · calls 13", "ctx · 171.2k/272.0k · 63%"],
  );
});

Deno.test("formatMetadata() shows the parts it has and drops a budget without a miss count", () => {
  deepEqual(formatMetadata({ cache_miss_tokens: 5 }), ["session · miss 5"]);
  deepEqual(formatMetadata({ cache_miss_budget: 5 }), []);
  deepEqual(formatMetadata({ context_window: 9, context_usage: 1 }), ["ctx · 100%"]);
  deepEqual(formatMetadata({ context_tokens: 1500 }), ["ctx · 1.5k"]);
  deepEqual(formatMetadata({ model: "  gpt-5  ", api_calls: 0 }), [
    "session · model gpt-5 · calls 0",
  ]);
});

Deno.test("formatMetadata() omits values of the wrong type or out of range", () => {
  const bad = [true, false, "12", -1, 1.5, -0.1, Number.NaN, null, [], {}];
  for (const value of bad) {
    const meta = {
      session_cache_rate: value,
      cache_miss_tokens: value,
      cache_miss_budget: value,
      api_calls: value,
      context_tokens: value,
      context_window: value,
      context_usage: value,
      model: typeof value === "string" ? " " : value,
    };
    deepEqual(formatMetadata(meta), [], String(value));
  }
  deepEqual(formatMetadata({ model: "   " }), []);
  deepEqual(formatMetadata([] as unknown as Record<string, unknown>), []);
});

Deno.test("formatMetadata() keeps astronomically large counts within 2 lines and 150 code points", () => {
  for (const huge of [1e30, Number.MAX_SAFE_INTEGER, Number.MAX_VALUE, 10n ** 50n]) {
    const lines = formatMetadata({
      model: "m".repeat(40),
      session_cache_rate: 1,
      cache_miss_tokens: huge,
      cache_miss_budget: huge,
      api_calls: huge,
      context_tokens: huge,
      context_window: huge,
      context_usage: 1,
      agent_lifecycle: "stuck",
    });
    equal(lines.length, METADATA_MAX_LINES);
    if (cpLength(lines.join("\n")) > METADATA_MAX_CHARS) throw new Error(lines.join("\n"));
    for (const line of lines) if (/inf|NaN|e\+/i.test(line)) throw new Error(line);
  }
  deepEqual(formatMetadata({ api_calls: Infinity }), []);
});

Deno.test("formatMetadata() cuts the first line to 150 and gives the second what is left", () => {
  const model = "x".repeat(200);
  deepEqual(formatMetadata({ model, context_usage: 0.5 }), [
    `session · model ${"x".repeat(150 - 16)}`,
  ]);
  // 130 code points on line 1 leave 19 for line 2 after the newline.
  const first = formatMetadata({ model: "y".repeat(130 - 16), context_tokens: 123456789 });
  equal(cpLength(first[0]!), 130);
  equal(first[1], "ctx · 123.5M");
  const cut = formatMetadata({
    model: "😀".repeat(130 - 16),
    context_tokens: 1,
    context_window: 1,
    context_usage: 0.5,
  });
  deepEqual(cut[1], "ctx · 1/1 · 50%");
  const tight = formatMetadata({
    model: "😀".repeat(140 - 16),
    context_tokens: 123,
    context_window: 456,
    context_usage: 0.5,
  });
  equal(tight[1], "ctx · 123");
  equal(cpLength(tight.join("\n")), METADATA_MAX_CHARS);
});

Deno.test("formatMetadata() shows the agent's lifecycle, asking for /refresh when stuck or offline", () => {
  deepEqual(formatMetadata({ agent_lifecycle: "stuck" }), ["agent · stuck · try /refresh"]);
  deepEqual(formatMetadata({ agent_lifecycle: "offline" }), ["agent · offline · try /refresh"]);
  for (const state of ["active", "idle", "asleep", "suspended"]) {
    deepEqual(formatMetadata({ agent_lifecycle: state }), [`agent · ${state}`]);
  }
  for (const unknown of ["dreaming", "STUCK", " active", 3, null]) {
    deepEqual(formatMetadata({ agent_lifecycle: unknown, api_calls: 1 }), ["session · calls 1"]);
  }
  deepEqual(formatMetadata({ agent_lifecycle: "idle", api_calls: 2, context_usage: 0 }), [
    "agent · idle · session · calls 2",
    "ctx · 0%",
  ]);
});
