import assert from "node:assert/strict";
import { downmix, toPcm16 } from "./opus_to_wav.ts";

Deno.test("downmix() averages channels and rejects uneven or missing ones", () => {
  const m = downmix([
    new Float32Array([1, 1, 0]),
    new Float32Array([0, 1, 0]),
    new Float32Array([0.5, 1, 0.3]),
  ]);
  assert.deepEqual(Array.from(m).map((v) => Math.round(v * 1e6) / 1e6), [0.5, 1, 0.1]);
  assert.throws(() => downmix([]), { message: "Expected at least one channel but found none" });
  assert.throws(() => downmix([new Float32Array(2), new Float32Array(3)]), {
    message: "Expected channels of equal length 2 but found 3",
  });
});

Deno.test("toPcm16() rounds and clips", () => {
  assert.deepEqual(
    Array.from(toPcm16(new Float32Array([0, 0.25, -0.25, 1.5, -1.5, 1e-6]))),
    [0, 8192, -8192, 32767, -32767, 0],
  );
});
