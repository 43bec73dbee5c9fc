import { deepEqual, equal, ok } from "node:assert/strict";
import { basename, join } from "node:path";
import { agentProfile, collectKanbanData } from "./data.ts";
import { fmt, fmtDuration, fmtTime, joinLimited } from "./format.ts";
import { cleanup, put, tempAgent } from "./testdata/agent_dir.ts";

Deno.test("kanban data: name, manifest model, status state and add-on secrets", async () => {
  const dir = await tempAgent("beta");
  await put(
    join(dir, "init.json"),
    JSON.stringify({
      manifest: { llm: { model: "m-1", provider: "p-1" }, language: "zh" },
      addons: ["telegram", "feishu", "custom"],
      mcp: { custom: {} },
    }),
  );
  await put(join(dir, ".status.json"), JSON.stringify({ runtime: { state: "active" } }));
  await put(join(dir, ".secrets", "feishu.json"), "{}");
  const d = (await collectKanbanData(dir, Date.now(), false))!;
  equal(d.name, basename(dir));
  equal(d.model, "m-1");
  equal(d.provider, "p-1");
  equal(d.state, "active");
  equal(d.language, "zh");
  equal(
    JSON.stringify(d.addons),
    JSON.stringify([
      { name: "custom", on: true },
      { name: "feishu", on: true },
      { name: "telegram", on: false },
    ]),
  );
  equal(d.fleet, null);
  await cleanup(dir);
});

Deno.test("kanban data: agent identity wins over the manifest; molts fall back to summaries", async () => {
  const dir = await tempAgent();
  await put(join(dir, "init.json"), JSON.stringify({ manifest: { llm: { model: "m" } } }));
  await put(
    join(dir, ".agent.json"),
    JSON.stringify({ llm: { model: "own", context_limit: 1000 }, state: "idle" }),
  );
  await put(join(dir, "system", "summaries", "molt_1.md"), "x");
  await put(join(dir, "system", "summaries", "molt_2.md"), "x");
  await put(join(dir, "system", "summaries", "other.md"), "x");
  const d = (await collectKanbanData(dir, Date.now(), false))!;
  equal(d.model, "own");
  equal(d.state, "idle");
  equal(d.molts, 2);
  equal(d.ctxWindow, 1000);
  equal(d.provider, "?");
  await cleanup(dir);
});

Deno.test("formats: counts, durations, times and limited lists", () => {
  equal(fmt(1200), "1.2K");
  equal(fmt(999), "999");
  equal(fmt(2_500_000), "2.5M");
  equal(fmtDuration(125), "2m");
  equal(fmtDuration(0), "0m");
  equal(fmtDuration(-5), "0m");
  equal(fmtDuration(3600), "1h");
  equal(fmtDuration(90061), "1d1h1m");
  equal(fmtTime(""), "?");
  equal(fmtTime(undefined), "?");
  equal(fmtTime("not a date"), "not a date");
  ok(/^2025-0[12]-\d\d \d\d:\d\d\b/.test(fmtTime("2025-01-15T09:30:00Z")));
  equal(joinLimited([]), "—");
  equal(joinLimited(["a", "b"]), "a, b");
  const long = joinLimited(Array.from({ length: 100 }, (_, i) => `capability_${i}`));
  ok(Array.from(long).length <= 240 && /…\(\+\d+\)$/.test(long), long);
});

Deno.test("fmtTime() shows a date in the given time zone, naming it", () => {
  equal(fmtTime("2025-01-15T09:30:00Z", "Asia/Shanghai"), "2025-01-15 17:30 Asia/Shanghai");
  equal(fmtTime(0, "UTC"), "1970-01-01 00:00 UTC");
  equal(fmtTime("2025-01-15T09:30:00Z", "Not/AZone"), "2025-01-15 09:30 UTC");
});

Deno.test("agentProfile(): identity first, then the manifest; zone as written or UTC without awareness", async () => {
  const dir = await tempAgent();
  deepEqual(await agentProfile(dir), { language: null, name: null, timeZone: null });
  await put(
    join(dir, "init.json"),
    JSON.stringify({
      manifest: { agent_name: "true", language: "wen", timezone_awareness: false },
    }),
  );
  deepEqual(await agentProfile(dir), { language: "wen", name: "true", timeZone: "UTC" });
  await put(
    join(dir, ".agent.json"),
    JSON.stringify({
      agent_name: "scribe",
      nickname: " Scribe ",
      language: "zh",
      time_zone: "Asia/Tokyo",
    }),
  );
  deepEqual(await agentProfile(dir), { language: "zh", name: "Scribe", timeZone: "Asia/Tokyo" });
  await put(
    join(dir, ".agent.json"),
    JSON.stringify({ agent_name: "scribe", timezone: "Europe/Paris" }),
  );
  deepEqual(await agentProfile(dir), { language: "wen", name: "scribe", timeZone: "Europe/Paris" });
  deepEqual(await agentProfile(""), { language: null, name: null, timeZone: null });
  await cleanup(dir);
});
