import { equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { LOCAL_COMMANDS } from "./names.ts";
import { createLocalCommands, parseCommand, seedDemoAgent } from "./mod.ts";
import { cleanup, parts, put, tempAgent } from "./testdata/agent_dir.ts";

const TEXTS = [
  ...LOCAL_COMMANDS.map((c) => `/${c}`),
  ...["1", "2", "3", "4", "5", "6", "7", "all"].map((a) => `/kanban ${a}`),
  "/system a",
  "/system doc_1",
];

async function renderAll(dir: string): Promise<ReturnType<typeof parts>[]> {
  const warnings: string[] = [];
  const lc = createLocalCommands({
    workdir: dir,
    now: Date.now,
    log: { warn: (m) => warnings.push(m) },
  });
  const out = [];
  for (const t of TEXTS) {
    const card = parts(await lc.render(parseCommand(t)!));
    ok(card.bytes < 30_000, `${t}: ${card.bytes} bytes`);
    ok(card.title !== "" && Array.from(card.title).length <= 103, t);
    out.push(card);
  }
  return out;
}

Deno.test("a 50 MB .agent.json is not parsed and every card stays small", async () => {
  const dir = await tempAgent();
  await seedDemoAgent(dir);
  const big = new Uint8Array(50 << 20).fill(0x20);
  big.set(new TextEncoder().encode('{"language": "zh", "nickname": "'), 0);
  await put(join(dir, ".agent.json"), big);
  const t0 = performance.now();
  const cards = await renderAll(dir);
  ok(performance.now() - t0 < 10_000);
  equal(cards[0]!.title, "Controls", "the oversized identity is ignored (so is its name)");
  await cleanup(dir);
});

Deno.test("invalid JSON and directories where files are expected give defaults", async () => {
  const dir = await tempAgent();
  await put(join(dir, "init.json"), "{not json");
  await Deno.mkdir(join(dir, ".agent.json"));
  await put(join(dir, ".status.json"), '"just a string"');
  await Deno.mkdir(join(dir, "system", "brief.md"), { recursive: true });
  await Deno.mkdir(join(dir, "logs", "token_ledger.jsonl"), { recursive: true });
  await put(join(dir, "delegates", "ledger.jsonl"), "\u0000\u0001garbage");
  await put(join(dir, "feishu", "taskcard.json"), "[1,2");
  const cards = await renderAll(dir);
  const status = cards[1]!;
  equal(status.body.split("\n")[0], `**alpha** · ?`);
  ok(status.body.includes("**Model:** ? (?)"));
  equal(cards[4]!.body, "No briefing was found.");
  await cleanup(dir);
});

Deno.test("an <at> tag in a system document or a name cannot mention anyone", async () => {
  const dir = await tempAgent();
  await seedDemoAgent(dir);
  await put(join(dir, "system", "evil.md"), 'hi <at id=all></at> and <at user_id="ou_x">x</at>');
  await put(join(dir, ".agent.json"), JSON.stringify({ nickname: "<at id=all></at>" }));
  await put(join(dir, "system", "brief.md"), "<at id=all></at> brief");
  const lc = createLocalCommands({ workdir: dir, now: Date.now });
  for (const t of ["/system evil", "/system", "/brief", "/status", "/kanban", "/kanban all"]) {
    const card = parts(await lc.render(parseCommand(t)!));
    ok(!/<at\b/i.test(card.body), `${t}: ${card.body}`);
  }
  const evil = parts(await lc.render(parseCommand("/system evil")!));
  ok(evil.body.includes("&lt;at id=all&gt;"));
  // The name goes into the header, which is plain text: it can mention no one there either.
  equal(evil.title, "<at id=all></at> · System");
  await cleanup(dir);
});

Deno.test("5 000 system documents: the listing shows 15, matches are capped, cards stay small", async () => {
  const dir = await tempAgent();
  await Deno.mkdir(join(dir, "system"));
  const body = "汉字😀 ".repeat(2000);
  await Promise.all(
    Array.from(
      { length: 5000 },
      (_, i) =>
        Deno.writeTextFile(join(dir, "system", `doc_${String(i).padStart(4, "0")}.md`), body),
    ),
  );
  const cards = await renderAll(dir);
  const lc = createLocalCommands({ workdir: dir, now: Date.now });
  const list = parts(await lc.render(parseCommand("/system")!));
  equal(list.buttons.length, 16);
  equal(list.body.split("\n").length, 1 + 15 + 1);
  ok(list.body.endsWith("- …(+4985)"));
  const many = cards.at(-1)!;
  ok(many.body.endsWith("_Content was truncated._"));
  await cleanup(dir);
});

Deno.test("many siblings and a huge ledger stay bounded", async () => {
  const dir = await tempAgent("agent_000");
  await seedDemoAgent(dir);
  for (let i = 1; i <= 80; i++) {
    await put(join(dir, "..", `agent_${String(i).padStart(3, "0")}`, ".agent.json"), "{}");
  }
  const line = JSON.stringify({ input: 1, output: 1, thinking: 1 }) + "\n";
  await put(join(dir, "logs", "token_ledger.jsonl"), line.repeat(200_000));
  const lc = createLocalCommands({ workdir: dir, now: Date.now });
  const net = parts(await lc.render(parseCommand("/kanban 6")!));
  equal(net.body.split("\n").length, 1 + 50);
  ok(net.bytes < 30_000);
  const tokens = parts(await lc.render(parseCommand("/kanban 5")!));
  const calls = Number(/- agent&#95;000: \S+ \((\d+) calls\)/.exec(tokens.body)?.[1]);
  ok(calls > 1000 && calls < 200_000, `read a bounded prefix: ${calls}`);
  await cleanup(dir);
});

Deno.test("seedDemoAgent() writes the sibling only when asked", async () => {
  const dir = await tempAgent();
  await seedDemoAgent(dir);
  const names = [];
  for await (const e of Deno.readDir(join(dir, ".."))) names.push(e.name);
  equal(names.join(), "alpha");
  await seedDemoAgent(dir, { sibling: "beta" });
  ok((await Deno.stat(join(dir, "..", "beta", ".agent.json"))).isFile);
  await cleanup(dir);
});
