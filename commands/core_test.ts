import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { createLocalCommands, parseCommand, seedDemoAgent } from "./mod.ts";
import type { LocalCommandsOptions } from "./mod.ts";
import { cleanup, parts, put, tempAgent } from "./testdata/agent_dir.ts";

const NOW = Date.parse("2025-01-20T10:05:00Z");

function core(workdir: string, extra: Partial<LocalCommandsOptions> = {}) {
  return createLocalCommands({ workdir, now: () => NOW, ...extra });
}

async function show(workdir: string, text: string, extra: Partial<LocalCommandsOptions> = {}) {
  const cmd = parseCommand(text);
  ok(cmd, text);
  return parts(await core(workdir, extra).render(cmd));
}

function assertControlButtons(card: ReturnType<typeof parts>) {
  for (const b of card.buttons) {
    deepEqual(Object.keys(b.value as object), ["lingtai_control"]);
  }
  ok(card.bytes < 30_000, `${card.bytes} bytes`);
}

Deno.test("/help: catalog in order, buttons for every other command, zh title", async () => {
  const dir = await tempAgent();
  await seedDemoAgent(dir);
  const en = await show(dir, "/help");
  equal(en.title, "Demo Agent · Controls");
  equal(en.body.split("\n")[0], "**Available local commands**");
  deepEqual(
    en.body.split("\n").slice(1).map((l) => l.split("`")[1]),
    [
      "/help",
      "/kanban",
      "/taskcard",
      "/refresh",
      "/sleep",
      "/clear",
      "/status",
      "/system",
      "/brief",
      "/pair",
      "/unpair",
    ],
  );
  deepEqual(en.buttons.map((b) => b.command), [
    "status",
    "kanban",
    "system",
    "brief",
    "taskcard",
    "refresh",
    "sleep",
    "clear",
  ]);
  assertControlButtons(en);
  await put(join(dir, ".agent.json"), JSON.stringify({ language: "zh" }));
  const zh = await show(dir, "/help");
  equal(zh.title, "控制中心", "no name known: the title alone");
  ok(zh.body.includes("- `/help` — 显示控制中心"));
  await cleanup(dir);
});

Deno.test("language: .agent.json first, then init.json manifest, normalised", async () => {
  const dir = await tempAgent();
  const cases: [unknown, unknown, string][] = [
    ["fr", "zh", "Controls"],
    ["wen", undefined, "总览"],
    ["wen-x", undefined, "总览"],
    ["zh-CN", undefined, "控制中心"],
    [undefined, "zh_TW", "控制中心"],
    [undefined, undefined, "Controls"],
  ];
  for (const [agent, manifest, title] of cases) {
    await put(join(dir, ".agent.json"), JSON.stringify({ language: agent }));
    await put(join(dir, "init.json"), JSON.stringify({ manifest: { language: manifest } }));
    equal((await show(dir, "/help")).title, title, `${agent}/${manifest}`);
  }
  equal((await show("", "/help")).title, "Controls", "no agent dir");
  // The header names the agent: nickname, else its true name, from .agent.json, else the manifest.
  await put(join(dir, "init.json"), JSON.stringify({ manifest: { agent_name: "true-name" } }));
  equal((await show(dir, "/help")).title, "true-name · Controls");
  await put(join(dir, ".agent.json"), JSON.stringify({ agent_name: "scribe", language: "zh" }));
  equal((await show(dir, "/help")).title, "scribe · 控制中心");
  await put(join(dir, ".agent.json"), JSON.stringify({ nickname: "Scribe\nTwo", agent_name: "s" }));
  equal((await show(dir, "/help")).title, "Scribe Two · Controls");
  await cleanup(dir);
});

Deno.test("/status: summary and bridge health", async () => {
  const dir = await tempAgent();
  await seedDemoAgent(dir);
  const card = await show(dir, "/status", {
    health: () => ({
      accounts: [{ alias: "main", connection: "connected", last_event_at: "2025-01-20T10:04:00Z" }],
      queue_depth: 3,
      dead_letters: 1,
    }),
  });
  equal(card.title, "Demo Agent · Status");
  const lines = card.body.split("\n");
  deepEqual(lines.slice(0, 4), [
    "**Demo Agent** · active",
    "**Model:** claude-sonnet-4 (anthropic)",
    "**Context:** 45.2K/200.0K (22.6%)",
    "**Molts:** 2 · **Uptime:** 2h5m",
  ]);
  ok(card.body.includes("- main: connected · last event 2025-01-20T10:04:00Z"));
  ok(card.body.includes("Queue: 3 · Dead letters: 1"));
  deepEqual(card.buttons.map((b) => b.command), ["kanban", "help"]);
  const quota = await show(dir, "/status", {
    health: () => ({
      accounts: [],
      queue_depth: 0,
      dead_letters: 2,
      dead_letter_reasons: [{ error: "Error: boom", count: 2 }],
      dedupe_keys: 14,
      typing_pending: 1,
      gone_chats: 2,
      quota: {
        month: "2025-01",
        used: 9,
        monthly_calls: 10,
        warning: "9 of 10 Feishu API calls used this month (90%): saving calls",
        saving: true,
      },
    }),
  });
  ok(quota.body.includes("- 2 × Error: boom"));
  ok(quota.body.includes("Dedupe keys: 14 · Typing pending: 1 · Chats gone: 2"));
  ok(quota.body.includes("API calls 2025-01: 9 of 10 · saving calls"));
  ok(quota.body.includes("9 of 10 Feishu API calls used this month (90%): saving calls"));
  const missing = await show("", "/status", {
    health: () => ({ accounts: [], queue_depth: 0, dead_letters: 0 }),
  });
  ok(missing.body.startsWith("Agent data is unavailable."));
  ok(missing.body.includes("Queue: 0"));
  const throwing = await show(dir, "/status", {
    health: () => {
      throw new Error("x");
    },
  });
  ok(!throwing.body.includes("Queue"));
  await cleanup(dir);
});

Deno.test("/kanban: overview, the seven layers and all", async () => {
  const dir = await tempAgent("alpha");
  await seedDemoAgent(dir, { sibling: "beta" });
  await put(join(dir, ".library", "custom", "s1", "SKILL.md"), "x");
  await put(join(dir, "delegates", "ledger.jsonl"), '{"a":1}\n\n{"b":2}\n');
  const overview = await show(dir, "/kanban");
  equal(overview.title, "Demo Agent · Kanban");
  deepEqual(overview.body.split("\n"), [
    "**Demo Agent** · active",
    "claude-sonnet-4 (anthropic)",
    "Context: 45.2K/200.0K (22.6%) · Uptime: 2h5m",
  ]);
  deepEqual(overview.buttons.map((b) => `${b.command} ${b.argument} ${b.label}`), [
    "kanban 1 1 · Identity",
    "kanban 2 2 · Model",
    "kanban 3 3 · Runtime",
    "kanban 4 4 · Mind",
    "kanban 5 5 · Tokens",
    "kanban 6 6 · Network",
    "kanban 7 7 · Addons",
    "kanban all All layers",
    "help  Controls",
  ]);
  const layer = async (n: string) => (await show(dir, `/kanban ${n}`)).body.split("\n");
  const l1 = await layer("1");
  deepEqual(l1.slice(0, 3), ["**1 · Identity**", "Agent: Demo Agent", "ID: 9a1e5b2d4c60"]);
  ok(/^Born: 2025-01-\d\d \d\d:\d\d/.test(l1[3]!), String(l1[3]));
  equal(l1[4], "Molts: 2");
  deepEqual(await layer("2"), ["**2 · Model**", "Active: claude-sonnet-4 (anthropic)"]);
  deepEqual(await layer("3"), [
    "**3 · Runtime**",
    "State: active",
    "Uptime: 2h5m",
    "Context: 45.2K/200.0K (22.6%)",
  ]);
  deepEqual(await layer("4"), [
    "**4 · Mind**",
    "Language: en",
    "Knowledge: 1 · Skills: 1 · Delegates: 2",
    "Capabilities: bash, web&#95;search, email",
  ]);
  deepEqual(await layer("5"), [
    "**5 · Tokens**",
    "- alpha: 4.5K (2 calls)",
    "- beta: 1.0K (1 calls)",
    "Total: 5.5K (3 calls)",
  ]);
  deepEqual(await layer("6"), [
    "**6 · Network**",
    "- alpha: active · claude-sonnet-4 · molts=2",
    "- beta: asleep · gpt-5-mini · molts=0",
  ]);
  deepEqual(await layer("7"), [
    "**7 · Addons**",
    "- ✅ feishu",
    "- ⬜ telegram",
    "Context limit: 200.0K",
  ]);
  const all = (await show(dir, "/kanban ALL")).body;
  equal(all.split("\n\n").length, 7);
  ok(all.startsWith("**1 · Identity**") && all.includes("\n\n**7 · Addons**"));
  equal((await show(dir, "/kanban 8")).body, overview.body);
  await put(join(dir, ".agent.json"), JSON.stringify({ language: "wen" }));
  ok((await show(dir, "/kanban 6")).body.startsWith("**6 · 诸机**"));
  equal((await show("", "/kanban")).body, "Agent data is unavailable.");
  await cleanup(dir);
});

Deno.test("/system: listing with a button per document, matches with content", async () => {
  const dir = await tempAgent();
  await seedDemoAgent(dir);
  const list = await show(dir, "/system");
  equal(list.title, "Demo Agent · System");
  deepEqual(list.body.split("\n").map((l) => l.replace(/\(\d+ B\)/, "(n B)")), [
    "**Choose a system document**",
    "- brief (n B)",
    "- covenant (n B)",
    "- principle (n B)",
  ]);
  deepEqual(list.buttons.map((b) => `${b.command}:${b.argument}`), [
    "system:brief",
    "system:covenant",
    "system:principle",
    "help:",
  ]);
  const hit = await show(dir, "/system PRINC");
  // File contents show as plain text: a heading or a list item is escaped, not rendered.
  equal(hit.body, "**principle**\n&#35; Principles\n\n&#45; Be concise.\n&#45; Cite sources.\n");
  deepEqual(hit.buttons.map((b) => `${b.command}:${b.argument}`), ["system:", "help:"]);
  const miss = await show(dir, "/system nothing");
  equal(miss.body, "No system documents were found.");
  deepEqual(miss.buttons.map((b) => b.command), ["system", "help"]);
  const none = await show(join(dir, "nope"), "/system");
  equal(none.body, "No system documents were found.");
  deepEqual(none.buttons.map((b) => b.command), ["help"]);
  await cleanup(dir);
});

Deno.test("/brief: the briefing, cut at 8000 code points with the notice", async () => {
  const dir = await tempAgent();
  equal((await show(dir, "/brief")).body, "No briefing was found.");
  await put(join(dir, "system", "brief.md"), "😀".repeat(9000));
  const cut = await show(dir, "/brief");
  ok(cut.body.endsWith("\n\n_Content was truncated._"));
  ok(cut.bytes < 30_000);
  await put(join(dir, "system", "brief.md"), "x".repeat(8100));
  const body = (await show(dir, "/brief")).body;
  equal(body, "x".repeat(8000) + "\n\n_Content was truncated._");
  await cleanup(dir);
});

Deno.test("/taskcard: shows and changes the preference on the card", async () => {
  const dir = await tempAgent();
  const lc = core(dir);
  const render = async (t: string) => parts(await lc.render(parseCommand(t)!));
  const shown = await render("/taskcard");
  equal(shown.title, "Task Card");
  equal(
    shown.body,
    "Task Cards are visible.\n**normal rows:** 1\n\n" +
      "Usage: `/taskcard on`, `/taskcard off`, or `/taskcard N` (1–10).",
  );
  deepEqual(shown.buttons.map((b) => `${b.command}:${b.argument}`), [
    "taskcard:on",
    "taskcard:off",
    "help:",
  ]);
  ok((await render("/taskcard off")).body.startsWith("Task Cards are hidden.\n**normal rows:** 1"));
  ok((await render("/taskcard 7")).body.includes("**normal rows:** 7"));
  deepEqual(await lc.taskcardPreference(), { enabled: false, normalRows: 7 });
  equal((await render("/taskcard 11")).body.slice(0, 6), "Usage:");
  await Deno.remove(join(dir, "feishu", "taskcard.json"));
  await Deno.mkdir(join(dir, "feishu", "taskcard.json"));
  equal((await render("/taskcard on")).body, "The Task Card setting could not be updated.");
  await cleanup(dir);
});

Deno.test("/refresh, /sleep, /clear: signal written, outcome on the card", async () => {
  const dir = await tempAgent();
  const lc = core(dir);
  const clicked = async (text: string) =>
    parts(await lc.render(parseCommand(text)!, { clicked: true }));
  equal((await show(dir, "/refresh")).body, "Refresh requested. The Agent will restart shortly.");
  equal((await show(dir, "/refresh")).body, "A refresh is already pending.");
  const sleep = await clicked("/sleep confirm");
  equal(sleep.title, "Sleep");
  equal(sleep.body, "Sleep requested. Send a message to wake the Agent.");
  equal((await clicked("/clear confirm")).body, "Conversation reset requested.");
  equal(await Deno.readTextFile(join(dir, ".clear")), "feishu\n");
  equal(
    (await parts(await core("").render(parseCommand("/clear confirm")!, { clicked: true }))).body,
    "The control signal failed.",
  );
  deepEqual((await clicked("/clear confirm")).buttons.map((b) => b.command), ["help"]);
  await cleanup(dir);
});

Deno.test("/sleep and /clear only ask until their confirm button is clicked", async () => {
  const dir = await tempAgent();
  const lc = core(dir);
  const exists = (name: string) => Deno.lstat(join(dir, name)).then(() => true, () => false);
  for (const command of ["sleep", "clear"] as const) {
    // Typed, even with "confirm", and a plain button: a confirm card, no signal.
    for (
      const [text, clicked] of [
        [`/${command}`, false],
        [`/${command} confirm`, false],
        [`/${command}`, true],
      ] as const
    ) {
      const card = parts(await lc.render(parseCommand(text)!, { clicked }));
      deepEqual(card.buttons.map((b) => [b.label, b.value]), [
        ["Confirm", { lingtai_control: { version: 1, command, argument: "confirm" } }],
        ["Cancel", { lingtai_control: { version: 1, command, argument: "cancel" } }],
      ]);
      equal(await exists(`.${command}`), false, `${text} clicked=${clicked}`);
    }
    const cancelled = parts(
      await lc.render(parseCommand(`/${command} cancel`)!, { clicked: true }),
    );
    equal(cancelled.body, "Cancelled. Nothing was changed.");
    equal(await exists(`.${command}`), false);
    await lc.render(parseCommand(`/${command} confirm`)!, { clicked: true });
    equal(await exists(`.${command}`), true);
  }
  await cleanup(dir);
});

Deno.test("a refusal card names the reason, shows how to name an owner, and runs nothing", async () => {
  const dir = await tempAgent();
  const lc = core(dir);
  const none = parts(await lc.refusal("clear", "ou_someone", "no_owner"));
  equal(none.title, "Clear");
  ok(none.body.startsWith("Nobody can control this Agent yet"));
  ok(none.body.includes('`"owners": ["ou_someone"]`'), none.body);
  ok(none.body.includes("**Your open_id:** `ou_someone`"));
  deepEqual(none.buttons.map((b) => b.command), ["help"]);
  const other = parts(await lc.refusal("system", "ou_someone", "not_owner"));
  equal(other.body.split("\n")[0], "Only the Agent's owners can use this command.");
  ok(!other.body.includes('"owners"'));
  // Something that is not an open_id is not echoed.
  ok(!parts(await lc.refusal("clear", "<at id=all>", "no_owner")).body.includes("<at"));
  await put(join(dir, ".agent.json"), JSON.stringify({ language: "zh" }));
  ok(parts(await lc.refusal("clear", "ou_x", "no_owner")).body.startsWith("尚未指定所有者"));
  deepEqual(await Array.fromAsync(Deno.readDir(dir), (e) => e.name).then((n) => n.sort()), [
    ".agent.json",
  ]);
  await cleanup(dir);
});
