import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { readBrief, systemDocuments } from "./docs.ts";
import { collectKanbanData } from "./data.ts";
import { sendSignal } from "./signals.ts";
import { cleanup, put, tempAgent } from "./testdata/agent_dir.ts";

const exists = (p: string) => Deno.lstat(p).then(() => true, () => false);

Deno.test("refresh removes a stale .refresh.taken, writes an empty .refresh, then is pending", async () => {
  const dir = await tempAgent();
  await put(join(dir, ".refresh.taken"), "");
  deepEqual(await sendSignal(dir, "refresh", "feishu"), { status: "sent" });
  equal(await Deno.readTextFile(join(dir, ".refresh")), "");
  ok(!await exists(join(dir, ".refresh.taken")));
  await put(join(dir, ".refresh.taken"), "");
  deepEqual(await sendSignal(dir, "refresh", "feishu"), { status: "pending" });
  ok(!await exists(join(dir, ".refresh.taken")), "the stale handshake is removed again");
  equal(await Deno.readTextFile(join(dir, ".refresh")), "");
  await cleanup(dir);
});

Deno.test("sleep writes an empty .sleep and clear writes the source line", async () => {
  const dir = await tempAgent();
  deepEqual(await sendSignal(dir, "sleep", "feishu"), { status: "sent" });
  equal(await Deno.readTextFile(join(dir, ".sleep")), "");
  deepEqual(await sendSignal(dir, "clear", "feishu"), { status: "sent" });
  equal(await Deno.readTextFile(join(dir, ".clear")), "feishu\n");
  // Only the signal files remain (no temp files).
  const names = [];
  for await (const e of Deno.readDir(dir)) names.push(e.name);
  deepEqual(names.sort(), [".clear", ".sleep"]);
  await cleanup(dir);
});

Deno.test("a signal that cannot be written is failed", async () => {
  const dir = await tempAgent();
  await Deno.mkdir(join(dir, ".sleep", "x"), { recursive: true });
  equal((await sendSignal(dir, "sleep", "feishu")).status, "failed");
  await cleanup(dir);
});

Deno.test("without an agent dir, signals, brief and system report it and kanban data is null", async () => {
  const parent = await Deno.makeTempDir();
  for (const dir of ["", join(parent, "missing")]) {
    for (const s of ["refresh", "sleep", "clear"] as const) {
      deepEqual(await sendSignal(dir, s, "feishu"), { status: "agent_dir_missing" });
    }
    equal((await readBrief(dir)).status, "agent_dir_missing");
    equal((await systemDocuments(dir, "")).status, "agent_dir_missing");
    equal(await collectKanbanData(dir, Date.now(), true), null);
  }
  ok(!await exists(join(parent, "missing")), "nothing creates the missing dir");
  await Deno.remove(parent, { recursive: true });
});
