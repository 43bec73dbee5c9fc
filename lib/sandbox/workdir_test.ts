import assert from "node:assert/strict";
import { join } from "node:path";
import { claimWorkdir, SANDBOX_CONFIG, setAsideBridgeState } from "./workdir.ts";

Deno.test("one sandbox per workdir; the second is told where the first runs", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const first = claimWorkdir(dir);
    first.describe("http://127.0.0.1:8787");
    assert.throws(
      () => claimWorkdir(dir),
      /Another sandbox already runs on .* \(pid \d+, http:\/\/127\.0\.0\.1:8787\/\)/,
    );
    first.release();
    claimWorkdir(dir).release();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a real agent's workdir is refused, and so is a workdir whose bridge runs", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(join(dir, "feishu"));
    assert.throws(
      () => claimWorkdir(dir),
      /holds a bridge's state \(feishu\/\) that no sandbox made/,
    );
    await Deno.writeTextFile(join(dir, SANDBOX_CONFIG), "{}");
    const lock = await Deno.open(join(dir, "feishu", "server.lock"), { write: true, create: true });
    await lock.lock(true);
    assert.throws(() => claimWorkdir(dir), /A bridge already runs on/);
    lock.close();
    claimWorkdir(dir).release();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a bridge state without its world is set aside, never deleted", async () => {
  const dir = await Deno.makeTempDir();
  try {
    assert.equal(setAsideBridgeState(dir, "abc"), null);
    await Deno.mkdir(join(dir, "feishu"));
    await Deno.writeTextFile(join(dir, "feishu", "store.db"), "x");
    assert.match(setAsideBridgeState(dir, "abc") ?? "", /feishu\.before-abc/);
    assert.equal(await Deno.readTextFile(join(dir, "feishu.before-abc", "store.db")), "x");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
