import assert from "node:assert/strict";
import { join } from "node:path";
import { createLogger } from "../core/mod.ts";
import {
  ACCESS_FILE_MODE,
  accessPath,
  openAccessBook,
  parseAccessFile,
  renderAccessFile,
} from "./book.ts";
import { emptyLedger } from "./ledger.ts";

const quiet = createLogger({ sink: () => {} });
const ask = { openId: "ou_x", chatId: "oc_x", messageId: "om_1", atMs: 1000 };

async function workdir(): Promise<string> {
  return await Deno.makeTempDir({ prefix: "feishu-access-" });
}

Deno.test("an approval is written to feishu/access.json with mode 0600 and survives a reopen", async () => {
  const dir = await workdir();
  const book = openAccessBook(dir, { log: quiet, newCode: () => "k3f9qa" });
  assert.equal((await book.request("main", ask)).kind, "code");
  const decided = await book.decide("main", "k3f9qa", "approve", { by: "ou_o", atMs: 2000 });
  assert.equal(decided.kind, "approved");
  const path = accessPath(dir);
  assert.equal(path, join(dir, "feishu", "access.json"));
  assert.equal((await Deno.stat(path)).mode! & 0o777, ACCESS_FILE_MODE);
  const again = openAccessBook(dir, { log: quiet });
  assert.equal(again.isPaired("main", "ou_x"), true);
  assert.equal(again.isPaired("other", "ou_x"), false);
  assert.deepEqual(again.pairedIds("main"), ["ou_x"]);
});

Deno.test("the write is atomic: no temp file is left, and a failed write changes nothing in memory", async () => {
  const dir = await workdir();
  const book = openAccessBook(dir, { log: quiet, newCode: () => "k3f9qa" });
  await book.request("main", ask);
  assert.deepEqual([...Deno.readDirSync(join(dir, "feishu"))].map((e) => e.name), ["access.json"]);
  // The folder replaced by a file: the next change cannot be written, so it does not count.
  const folder = join(dir, "feishu");
  await Deno.rename(folder, `${folder}.moved`);
  await Deno.writeTextFile(folder, "");
  try {
    await assert.rejects(() =>
      book.decide("main", "k3f9qa", "approve", { by: "ou_o", atMs: 2000 })
    );
    assert.equal(book.isPaired("main", "ou_x"), false);
    assert.equal(book.pending("main", 2000).length, 1);
  } finally {
    await Deno.remove(folder);
    await Deno.rename(`${folder}.moved`, folder);
  }
  // Later changes still go through.
  assert.equal(
    (await book.decide("main", "k3f9qa", "approve", { by: "ou_o", atMs: 2000 })).kind,
    "approved",
  );
});

Deno.test("an unreadable access.json is set aside, not overwritten", async () => {
  const dir = await workdir();
  await Deno.mkdir(join(dir, "feishu"));
  await Deno.writeTextFile(accessPath(dir), '{"version": 1, "accounts": {"main": {"paired": 3}}}');
  const book = openAccessBook(dir, { log: quiet });
  assert.deepEqual(book.pairedIds("main"), []);
  assert.match(await Deno.readTextFile(`${accessPath(dir)}.unreadable`), /"paired": 3/);
});

Deno.test("the file format round-trips and rejects what is not a version-1 book", () => {
  const ledgers = new Map([["main", emptyLedger()]]);
  assert.deepEqual(parseAccessFile(renderAccessFile(ledgers)), ledgers);
  for (const bad of ["", "[]", '{"version": 2, "accounts": {}}', '{"version": 1}']) {
    assert.equal(parseAccessFile(bad), null, bad);
  }
});
