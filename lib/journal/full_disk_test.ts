import assert from "node:assert/strict";
import { join } from "node:path";
import { mountSmallDisk, smallDiskUnavailable } from "../core/testdata/small_disk.ts";

const CHILD = join(import.meta.dirname!, "testdata", "full_disk_child.ts");
const unavailable = await smallDiskUnavailable();
// deno-lint-ignore no-console -- an ignored test says why
if (unavailable) console.error(`full-disk journal test ignored: ${unavailable}`);

Deno.test({
  name:
    "a journal on a full disk refuses admits with a disk-full error, never panics, and works again once space returns",
  ignore: unavailable !== null,
  fn: async () => {
    await using disk = await mountSmallDisk(8192);
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--no-prompt",
        "--unstable-kv",
        `--allow-read=${disk.dir}`,
        `--allow-write=${disk.dir}`,
        CHILD,
        `--dir=${disk.dir}`,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    // Before the KV queue was removed: "KV queue dequeue failed: database or disk is full".
    assert.equal(out.code, 0, `the child died: ${stderr}`);
    const summary = JSON.parse(new TextDecoder().decode(out.stdout).trim());
    assert.ok(summary.failures.disk_full > 0, JSON.stringify(summary));
    assert.deepEqual(Object.keys(summary.failures), ["disk_full"]);
    assert.deepEqual(summary.lost, []);
    assert.deepEqual(summary.phantom, []);
    assert.equal(summary.processed, summary.admitted);
    // Everything admitted before the disk filled and after it was freed.
    assert.ok(summary.admitted >= 60, JSON.stringify(summary));
  },
});
