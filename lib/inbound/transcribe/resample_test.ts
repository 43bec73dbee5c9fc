import assert from "node:assert/strict";
import { downmix, lowPassTaps, resampleTo16k, toPcm16 } from "./resample.ts";

function sine(freq: number, options: { rate: number; seconds: number; amplitude?: number }) {
  const n = Math.round(options.rate * options.seconds);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    out[i] = (options.amplitude ?? 1) * Math.sin((2 * Math.PI * freq * i) / options.rate);
  }
  return out;
}

/** RMS of the middle half, away from the zero-padded edges. */
function middleRms(x: Float32Array): number {
  const from = Math.floor(x.length / 4);
  const to = Math.floor((3 * x.length) / 4);
  let acc = 0;
  for (let i = from; i < to; i++) acc += x[i]! * x[i]!;
  return Math.sqrt(acc / (to - from));
}

Deno.test("lowPassTaps() gives a symmetric odd-length filter with unit DC gain", () => {
  const h = lowPassTaps({ cutoff: 0.15625, transition: 1 / 48 });
  assert.equal(h.length % 2, 1);
  for (let i = 0; i < h.length; i++) assert.ok(Math.abs(h[i]! - h[h.length - 1 - i]!) < 1e-15);
  assert.ok(Math.abs(h.reduce((a, b) => a + b, 0) - 1) < 1e-12);
});

Deno.test("lowPassTaps() rejects a cutoff at or above Nyquist", () => {
  assert.throws(() => lowPassTaps({ cutoff: 0.5, transition: 0.01 }), {
    message: "Expected cutoff between 0 and 0.5 but found 0.5",
  });
});

Deno.test("resampleTo16k() keeps a 1 kHz tone at its level", () => {
  const out = resampleTo16k(sine(1000, { rate: 48000, seconds: 0.5, amplitude: 0.8 }), 48000);
  assert.equal(out.length, 8000);
  const want = 0.8 / Math.SQRT2;
  assert.ok(Math.abs(middleRms(out) - want) < want * 0.001, `rms ${middleRms(out)}`);
  // The phase is kept (no delay): sample m of the output sits at input 3m.
  assert.ok(Math.abs(out[4000]! - 0.8 * Math.sin((2 * Math.PI * 1000 * 12000) / 48000)) < 1e-3);
});

for (const freq of [9000, 12000, 20000]) {
  Deno.test(`resampleTo16k() removes a ${freq} Hz tone instead of folding it into the speech band`, () => {
    const input = sine(freq, { rate: 48000, seconds: 0.5 });
    // Keeping every third sample alone would fold this tone down at full level.
    const naive = input.filter((_, i) => i % 3 === 0);
    assert.ok(middleRms(naive) > 0.5);
    assert.ok(middleRms(resampleTo16k(input, 48000)) < 1e-3);
  });
}

Deno.test("resampleTo16k() rounds the output length up and copies 16 kHz input", () => {
  assert.equal(resampleTo16k(new Float32Array(10), 48000).length, 4);
  assert.equal(resampleTo16k(new Float32Array(10), 32000).length, 5);
  const same = new Float32Array([0.1, 0.2]);
  const copy = resampleTo16k(same, 16000);
  assert.deepEqual(copy, same);
  assert.notEqual(copy, same);
});

Deno.test("resampleTo16k() rejects a rate that is not a multiple of 16 kHz", () => {
  assert.throws(() => resampleTo16k(new Float32Array(1), 44100), {
    message: "Expected an input rate that is a whole multiple of 16000 but found 44100",
  });
});

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
