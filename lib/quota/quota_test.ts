import assert from "node:assert/strict";
import { createLogger, ManualClock } from "../core/mod.ts";
import { createQuotaMeter } from "./meter.ts";
import { monthKey, QUOTA_SAVING_RATIO, QUOTA_WARNING_RATIO, quotaView, reaches } from "./view.ts";

const months: [number, string][] = [
  [Date.UTC(2025, 0, 1, 0, 0, 0), "2025-01"],
  [Date.UTC(2025, 0, 31, 23, 59, 59, 999), "2025-01"],
  [Date.UTC(2025, 1, 1), "2025-02"],
  [Date.UTC(2024, 11, 31, 23, 59, 59), "2024-12"],
  // 08:00 on the 1st in Beijing is still the previous month in UTC.
  [Date.UTC(2025, 2, 31, 16, 30), "2025-03"],
];
for (const [ms, want] of months) {
  Deno.test(`monthKey() puts ${new Date(ms).toISOString()} in ${want}`, () => {
    assert.equal(monthKey(ms), want);
  });
}

const thresholds: [used: number, quota: number | null, warning: boolean, saving: boolean][] = [
  [0, 10, false, false],
  [7, 10, false, false],
  [8, 10, true, false],
  [9, 10, true, true],
  [10, 10, true, true],
  [12, 10, true, true],
  [799, 1000, false, false],
  [800, 1000, true, false],
  [899, 1000, true, false],
  [900, 1000, true, true],
  [1_000_000, null, false, false],
];
for (const [used, quota, warning, saving] of thresholds) {
  Deno.test(`quotaView() with ${used} of ${quota ?? "no quota"} calls: warning ${warning}, saving ${saving}`, () => {
    const v = quotaView({
      month: "2025-01",
      monthlyCalls: quota,
      rows: [{ account: "main", category: "send", count: used }],
    });
    assert.equal(v.warning !== null, warning);
    assert.equal(v.saving, saving);
    assert.equal(reaches(used, quota, QUOTA_WARNING_RATIO), warning);
    assert.equal(reaches(used, quota, QUOTA_SAVING_RATIO), saving);
    assert.equal(v.ratio, quota === null ? null : Math.round(used / quota * 10_000) / 10_000);
  });
}

Deno.test("quotaView() sums per category and per account, every category present, unknown ones as probes", () => {
  const v = quotaView({
    month: "2025-01",
    monthlyCalls: null,
    rows: [
      { account: "a", category: "send", count: 2 },
      { account: "a", category: "card", count: 1 },
      { account: "b", category: "send", count: 4 },
      { account: "b", category: "teleport", count: 1 },
    ],
  });
  assert.equal(v.used, 8);
  assert.deepEqual(v.by_category, {
    send: 6,
    card: 1,
    edit: 0,
    reaction: 0,
    download: 0,
    upload: 0,
    probe: 1,
  });
  assert.deepEqual(v.by_account, { a: 3, b: 5 });
  assert.equal(v.warning, null);
});

function memorySink(
  initial: { account: string; month: string; category: string; count: number }[] = [],
) {
  const rows = [...initial];
  return {
    rows,
    increment(account: string, month: string, category: string, n = 1) {
      const r = rows.find((x) =>
        x.account === account && x.month === month && x.category === category
      );
      if (r) r.count += n;
      else rows.push({ account, month, category, count: n });
    },
    month: (m: string) => rows.filter((r) => r.month === m),
  };
}

Deno.test("createQuotaMeter() writes every call through, continues from the stored month, and starts a new month at zero", () => {
  const clock = new ManualClock(Date.UTC(2025, 0, 31, 23, 59));
  const sink = memorySink([{ account: "main", month: "2025-01", category: "send", count: 5 }]);
  const meter = createQuotaMeter({
    sink,
    clock,
    monthlyCalls: null,
    log: createLogger({ sink: () => {} }),
  });
  assert.equal(meter.view().used, 5);
  meter.counter("main")("send");
  meter.counter("main")("reaction");
  assert.deepEqual(sink.month("2025-01").map((r) => [r.category, r.count]), [["send", 6], [
    "reaction",
    1,
  ]]);
  assert.equal(meter.view().used, 7);
  clock.advance(60_000);
  assert.equal(meter.view().month, "2025-02");
  assert.equal(meter.view().used, 0);
  meter.counter("main")("probe");
  assert.deepEqual(sink.month("2025-02").map((r) => r.count), [1]);
});

Deno.test("createQuotaMeter() logs the warning and the start of saving once each, and keeps counting when the store fails", () => {
  const lines: string[] = [];
  const sink = memorySink();
  let broken = false;
  const meter = createQuotaMeter({
    sink: {
      ...sink,
      increment: (...a: Parameters<typeof sink.increment>) => {
        if (broken) throw new Error("the store is closed");
        sink.increment(...a);
      },
    },
    clock: new ManualClock(Date.UTC(2025, 5, 1)),
    monthlyCalls: 10,
    log: createLogger({ sink: (l) => lines.push(l) }),
  });
  const count = meter.counter("main");
  for (let i = 0; i < 8; i++) count("send");
  assert.equal(meter.saving(), false);
  assert.equal(lines.filter((l) => l.includes("quota:")).length, 1);
  count("send");
  assert.equal(meter.saving(), true);
  for (let i = 0; i < 5; i++) count("card");
  assert.equal(lines.filter((l) => l.includes("saving calls from now on")).length, 1);
  broken = true;
  count("send");
  count("send");
  assert.equal(meter.view().used, 16);
  assert.equal(lines.filter((l) => l.includes("could not be counted")).length, 1);
});
