import { equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { CLAIMS_PER_ACCOUNT, createClaimer } from "./claims.ts";
import { cleanup, put, tempAgent } from "./testdata/agent_dir.ts";

const file = (dir: string) => join(dir, "feishu", "control_callbacks.json");

Deno.test("a click is claimed once per account and only its hash is stored", async () => {
  const dir = await tempAgent();
  const claim = createClaimer(dir);
  equal(await claim("main", "evt_secret_1"), true);
  equal(await claim("main", "evt_secret_1"), false);
  equal(await claim("other", "evt_secret_1"), true);
  const text = await Deno.readTextFile(file(dir));
  ok(!text.includes("evt_secret_1"));
  const data = JSON.parse(text);
  equal(data.version, 1);
  ok(/^[0-9a-f]{64}$/.test(data.accounts.main[0]));
  // A restarted process sees the durable claim.
  equal(await createClaimer(dir)("main", "evt_secret_1"), false);
  await cleanup(dir);
});

Deno.test("concurrent claims of one event: exactly one wins", async () => {
  const dir = await tempAgent();
  const claim = createClaimer(dir);
  const results = await Promise.all(Array.from({ length: 10 }, () => claim("main", "e")));
  equal(results.filter(Boolean).length, 1);
  await cleanup(dir);
});

Deno.test("each account keeps the last 1000 digests", async () => {
  const dir = await tempAgent();
  const hashes = Array.from(
    { length: CLAIMS_PER_ACCOUNT },
    (_, i) => i.toString(16).padStart(64, "0"),
  );
  await put(file(dir), JSON.stringify({ version: 1, accounts: { main: hashes } }));
  equal(await createClaimer(dir)("main", "new"), true);
  const list = JSON.parse(await Deno.readTextFile(file(dir))).accounts.main as string[];
  equal(list.length, CLAIMS_PER_ACCOUNT);
  equal(list[0], hashes[1], "the oldest is evicted");
  await cleanup(dir);
});

Deno.test("a corrupt or unusable store refuses every claim", async () => {
  const dir = await tempAgent();
  for (
    const text of [
      "{",
      "[]",
      '{"version": 2, "accounts": {}}',
      '{"version": 1, "accounts": []}',
      '{"version": 1, "accounts": {"main": [1]}}',
      '{"version": 1, "accounts": {"main": "x"}}',
    ]
  ) {
    await put(file(dir), text);
    equal(await createClaimer(dir)("main", "e"), false, text);
    equal(await Deno.readTextFile(file(dir)), text, "left as it was");
  }
  await Deno.remove(file(dir));
  await Deno.mkdir(file(dir));
  equal(await createClaimer(dir)("main", "e"), false, "a directory in its place");
  equal(await createClaimer("")("main", "e"), false, "no agent dir");
  await cleanup(dir);
});

Deno.test("an alias like __proto__ is stored as a plain account", async () => {
  const dir = await tempAgent();
  const claim = createClaimer(dir);
  equal(await claim("__proto__", "e"), true);
  equal(await claim("__proto__", "e"), false);
  await cleanup(dir);
});
