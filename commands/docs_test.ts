import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { readBrief, systemDocuments } from "./docs.ts";
import { cleanup, put, tempAgent } from "./testdata/agent_dir.ts";

Deno.test("the brief falls back from system/brief.md to knowledge/*/brief.md to init.json", async () => {
  const dir = await tempAgent();
  equal((await readBrief(dir)).status, "not_found");
  await put(join(dir, "init.json"), JSON.stringify({ manifest: { brief: "from manifest" } }));
  deepEqual(await readBrief(dir), { status: "ok", text: "from manifest", cut: false });
  await put(join(dir, "init.json"), JSON.stringify({ brief: "top", manifest: { brief: "m" } }));
  equal((await readBrief(dir)).text, "top");
  await put(join(dir, "knowledge", "b", "brief.md"), "from b");
  await put(join(dir, "knowledge", "a", "brief.md"), "from a");
  equal((await readBrief(dir)).text, "from a");
  await put(join(dir, "system", "brief.md"), "   \n");
  equal((await readBrief(dir)).text, "from a", "a blank system brief is skipped");
  await put(join(dir, "system", "brief.md"), "own brief");
  equal((await readBrief(dir)).text, "own brief");
  await cleanup(dir);
});

Deno.test("only the first readable knowledge brief counts, even when blank", async () => {
  const dir = await tempAgent();
  await put(join(dir, "knowledge", "a", "brief.md"), "  ");
  await put(join(dir, "knowledge", "b", "brief.md"), "from b");
  await put(join(dir, "init.json"), JSON.stringify({ brief: "init" }));
  equal((await readBrief(dir)).text, "init");
  await cleanup(dir);
});

Deno.test("system documents: missing, empty, sorted listing, case-insensitive match, no match", async () => {
  const dir = await tempAgent();
  equal((await systemDocuments(dir, "")).status, "directory_missing");
  await Deno.mkdir(join(dir, "system"));
  await put(join(dir, "system", "notes.txt"), "not markdown");
  equal((await systemDocuments(dir, "")).status, "empty");
  await put(join(dir, "system", "principle.md"), "Be kind.");
  await put(join(dir, "system", "covenant.md"), "Ask first.");
  await Deno.mkdir(join(dir, "system", "dir.md"));
  deepEqual(await systemDocuments(dir, ""), {
    status: "ok",
    docs: [{ name: "covenant", size: 10 }, { name: "principle", size: 8 }],
    total: 2,
  });
  deepEqual(await systemDocuments(dir, "PRINC"), {
    status: "ok",
    docs: [{ name: "principle", size: 8, content: "Be kind.", cut: false }],
    total: 2,
  });
  const miss = await systemDocuments(dir, "missing");
  equal(miss.status, "no_match");
  deepEqual(miss.docs.map((d) => d.name), ["covenant", "principle"]);
  ok(miss.docs.every((d) => d.content === undefined));
  await cleanup(dir);
});
