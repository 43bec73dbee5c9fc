import assert from "node:assert/strict";
import { BridgeError } from "../core/mod.ts";
import { writeStreamCapped } from "./_stream_file.ts";

const CHUNK = 4096;

Deno.test("writeStreamCapped() writes each chunk to disk before the next is read", async () => {
  const path = await Deno.makeTempFile();
  const onDisk: number[] = [];
  async function* source() {
    for (let i = 0; i < 8; i++) {
      // When chunk i is asked for, chunks 0..i-1 are already in the file.
      onDisk.push((await Deno.stat(path)).size);
      yield new Uint8Array(CHUNK).fill(i);
    }
  }
  try {
    assert.equal(await writeStreamCapped(source(), { path, maxBytes: 8 * CHUNK }), 8 * CHUNK);
    assert.deepEqual(onDisk, [0, 1, 2, 3, 4, 5, 6, 7].map((i) => i * CHUNK));
    const bytes = await Deno.readFile(path);
    assert.equal(bytes[CHUNK * 5], 5);
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("writeStreamCapped() stops at the cap, closes the source, removes the file and names the cap", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/f`;
  let pulled = 0;
  let closed = false;
  async function* source() {
    try {
      for (;;) {
        pulled++;
        yield new Uint8Array(CHUNK);
      }
    } finally {
      closed = true;
    }
  }
  try {
    await assert.rejects(
      writeStreamCapped(source(), { path, maxBytes: 3 * CHUNK + 1 }),
      (e: unknown) => {
        assert.ok(e instanceof BridgeError);
        assert.equal(e.code, "DOWNLOAD_FAILED");
        assert.equal(e.retryable, false);
        assert.match(
          e.message,
          /larger than the 12289-byte cap \(limits\.inbound_download_bytes\)/,
        );
        return true;
      },
    );
    assert.equal(pulled, 4, "nothing is read past the chunk that crosses the cap");
    assert.ok(closed);
    assert.deepEqual([...Deno.readDirSync(dir)], []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
