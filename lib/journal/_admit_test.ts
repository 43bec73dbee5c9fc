import assert from "node:assert/strict";
import { join } from "node:path";
import { commitAdmit, MAX_ADMIT_RACES } from "./_admit.ts";
import { dedupeKey, fifoKey } from "./_keys.ts";
import { withTempDir } from "./testdata/helpers.ts";

const input = { account: "main", chatKey: "oc_1", dedupeKeys: ["e1"], payload: { n: 1 } };

async function withKv(fn: (kv: Deno.Kv) => Promise<void>) {
  await withTempDir(async (dir) => {
    const kv = await Deno.openKv(join(dir, "queue.kv"));
    try {
      await fn(kv);
    } finally {
      kv.close();
    }
  });
}

Deno.test("commitAdmit() retries on a new key when the entry key was taken, never overwriting it", () =>
  withKv(async (kv) => {
    await kv.set(fifoKey("main", "oc_1", 7), "planted");
    const seqs = [7, 8];
    const { seq, done } = commitAdmit({
      kv,
      now: () => 0,
      nextSeq: () => seqs.shift()!,
      dedupeTtlMs: 86_400_000,
    }, input);
    assert.equal(seq, 7);
    assert.deepEqual(await done, { result: "queued", seq: 8, races: 1 });
    assert.equal((await kv.get(fifoKey("main", "oc_1", 7))).value, "planted");
    assert.notEqual((await kv.get(fifoKey("main", "oc_1", 8))).value, null);
    assert.deepEqual((await kv.get(dedupeKey("main", "e1"))).value, { seq: 8, at: 0 });
  }));

Deno.test("commitAdmit() gives up after repeated races with a clear error and writes nothing", () =>
  withKv(async (kv) => {
    await kv.set(fifoKey("main", "oc_1", 7), "planted");
    const { done } = commitAdmit({
      kv,
      now: () => 0,
      nextSeq: () => 7,
      dedupeTtlMs: 86_400_000,
    }, input);
    await assert.rejects(
      done,
      new RegExp(`settle within ${MAX_ADMIT_RACES} attempts but found ${MAX_ADMIT_RACES} races`),
    );
    assert.equal((await kv.get(dedupeKey("main", "e1"))).versionstamp, null);
  }));

Deno.test("commitAdmit() answers duplicate and writes no entry for it", () =>
  withKv(async (kv) => {
    let taken = 0;
    const ctx = { kv, now: () => 0, nextSeq: () => ++taken, dedupeTtlMs: 86_400_000 };
    assert.equal((await commitAdmit(ctx, input).done).result, "queued");
    assert.deepEqual(await commitAdmit(ctx, input).done, { result: "duplicate", seq: 2, races: 0 });
    assert.equal(taken, 2);
    assert.equal((await kv.get(fifoKey("main", "oc_1", 2))).versionstamp, null);
  }));
