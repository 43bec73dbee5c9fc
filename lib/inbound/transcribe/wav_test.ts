import assert from "node:assert/strict";
import { encodeWav } from "./wav.ts";
import { parseWav, wavSamples } from "./testdata/wav_reader.ts";

Deno.test("encodeWav() writes the canonical 44-byte PCM header", () => {
  const bytes = encodeWav(new Int16Array([1, -2, 3]), { sampleRate: 16000 });
  const view = new DataView(bytes.buffer);
  const tag = (at: number) => new TextDecoder().decode(bytes.subarray(at, at + 4));
  assert.equal(bytes.length, 44 + 6);
  assert.equal(tag(0), "RIFF");
  assert.equal(view.getUint32(4, true), 36 + 6);
  assert.equal(tag(8), "WAVE");
  assert.equal(tag(12), "fmt ");
  assert.equal(view.getUint32(16, true), 16);
  assert.equal(view.getUint16(20, true), 1);
  assert.equal(view.getUint16(22, true), 1);
  assert.equal(view.getUint32(24, true), 16000);
  assert.equal(view.getUint32(28, true), 32000);
  assert.equal(view.getUint16(32, true), 2);
  assert.equal(view.getUint16(34, true), 16);
  assert.equal(tag(36), "data");
  assert.equal(view.getUint32(40, true), 6);
  assert.deepEqual([view.getInt16(44, true), view.getInt16(46, true)], [1, -2]);
});

Deno.test("encodeWav() records interleaved stereo rates and block alignment", () => {
  const info = parseWav(encodeWav(new Int16Array(8), { sampleRate: 48000, channels: 2 }));
  assert.deepEqual(info, {
    format: 1,
    channels: 2,
    sampleRate: 48000,
    bitsPerSample: 16,
    dataOffset: 44,
    dataLength: 16,
  });
});

Deno.test("encodeWav() rejects a channel count that is not a positive integer", () => {
  assert.throws(
    () => encodeWav(new Int16Array(1), { sampleRate: 16000, channels: 0 }),
    { message: "Expected channels to be a positive integer but found 0" },
  );
});

Deno.test("parseWav() skips chunks before fmt and data", () => {
  const plain = encodeWav(new Int16Array([42]), { sampleRate: 16000 });
  const list = new Uint8Array([...new TextEncoder().encode("LIST"), 3, 0, 0, 0, 1, 2, 3, 0]);
  const withList = new Uint8Array([...plain.subarray(0, 12), ...list, ...plain.subarray(12)]);
  const info = parseWav(withList);
  assert.equal(info.dataOffset, 44 + list.length);
  assert.deepEqual(Array.from(wavSamples(withList)), [42]);
});

const broken: { name: string; bytes: Uint8Array; message: RegExp }[] = [
  { name: "an Ogg file", bytes: new TextEncoder().encode("OggS0000000000"), message: /RIFF/ },
  {
    name: "a truncated data chunk",
    bytes: encodeWav(new Int16Array(10), { sampleRate: 16000 }).subarray(0, 50),
    message: /Expected 20 bytes of sample data but found 6/,
  },
  {
    name: "a header without a data chunk",
    bytes: encodeWav(new Int16Array(0), { sampleRate: 16000 }).subarray(0, 36),
    message: /Expected a data chunk but found none/,
  },
];
for (const c of broken) {
  Deno.test(`parseWav() rejects ${c.name}`, () => {
    assert.throws(() => parseWav(c.bytes), c.message);
  });
}
