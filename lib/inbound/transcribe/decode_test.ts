import assert from "node:assert/strict";
import { ManualClock, systemClock } from "../../core/mod.ts";
import { createOpusDecoder } from "./decode.ts";
import { AudioDecodeError } from "./decoded.ts";
import { parseWav, wavSamples } from "./testdata/wav_reader.ts";

const fixtures = new URL("../../../tests/fixtures/", import.meta.url);
const voice = await Deno.readFile(new URL("voice_hello.ogg", fixtures));
const tone = await Deno.readFile(new URL("tone_stereo.ogg", fixtures));
const fakeWorker = new URL("fake_decode_worker.ts", fixtures);
const text = (s: string) => new TextEncoder().encode(s);

function rms(samples: Int16Array): number {
  let acc = 0;
  for (const s of samples) acc += (s / 32768) ** 2;
  return Math.sqrt(acc / samples.length);
}

Deno.test("createOpusDecoder() turns the voice fixture into a 16 kHz mono WAV", async () => {
  using decoder = createOpusDecoder({ clock: systemClock });
  const out = await decoder.decode(voice);
  const info = parseWav(out.wav);
  assert.deepEqual(
    [info.format, info.channels, info.sampleRate, info.bitsPerSample],
    [1, 1, 16000, 16],
  );
  assert.equal(info.dataLength, out.samples * 2);
  assert.equal(out.sourceChannels, 1);
  // opusinfo reports a playback length of 1.707 s.
  assert.equal(out.durationSeconds, 1.71);
  assert.ok(Math.abs(out.samples - 1.707 * 16000) <= 16, `${out.samples} samples`);
  assert.ok(rms(wavSamples(out.wav)) > 0.01, "the speech is audible");
});

Deno.test("createOpusDecoder() mixes a stereo stream down to one channel", async () => {
  using decoder = createOpusDecoder({ clock: systemClock });
  const out = await decoder.decode(tone);
  assert.equal(out.sourceChannels, 2);
  assert.equal(parseWav(out.wav).channels, 1);
  assert.equal(out.durationSeconds, 1);
  // Two -6 dBFS sines on separate channels average to an RMS of 0.25.
  const level = rms(wavSamples(out.wav).subarray(2000, 14000));
  assert.ok(Math.abs(level - 0.25) < 0.03, `rms ${level}`);
});

Deno.test("createOpusDecoder() answers concurrent jobs with their own results", async () => {
  using decoder = createOpusDecoder({ clock: systemClock });
  const [a, b, c] = await Promise.all([
    decoder.decode(tone),
    decoder.decode(voice),
    decoder.decode(tone),
  ]);
  assert.deepEqual([a.sourceChannels, b.sourceChannels, c.sourceChannels], [2, 1, 2]);
  assert.deepEqual(a.wav, c.wav);
});

const corrupt: { name: string; bytes: Uint8Array }[] = [
  { name: "empty input", bytes: new Uint8Array(0) },
  { name: "random bytes", bytes: Uint8Array.from({ length: 2000 }, (_, i) => (i * 73) % 251) },
  { name: "a WAV file", bytes: text("RIFF\x24\x00\x00\x00WAVEfmt ") },
  { name: "only the Ogg headers", bytes: voice.slice(0, 120) },
];
for (const c of corrupt) {
  Deno.test(`createOpusDecoder() rejects ${c.name} with a clear error`, async () => {
    using decoder = createOpusDecoder({ clock: systemClock });
    await assert.rejects(decoder.decode(c.bytes), (err: Error) => {
      assert.ok(err instanceof AudioDecodeError);
      assert.match(err.message, /^Expected Ogg Opus audio but /);
      return true;
    });
    // The worker survives a bad file.
    assert.equal((await decoder.decode(voice)).sourceChannels, 1);
  });
}

Deno.test("createOpusDecoder() gives up on a job that outlives its budget and restarts the worker", async () => {
  const clock = new ManualClock();
  using decoder = createOpusDecoder({ clock, timeoutMs: 5000, workerUrl: fakeWorker });
  const hung = decoder.decode(text("hang"));
  const next = decoder.decode(text("ok"));
  clock.advance(4999);
  clock.advance(1);
  await assert.rejects(hung, {
    name: "AudioDecodeError",
    message: "Expected decoding to finish within 5 s but it did not",
  });
  assert.equal((await next).sourceChannels, 1);
});

Deno.test("createOpusDecoder() ignores an answer carrying another job's id", async () => {
  using decoder = createOpusDecoder({ clock: systemClock, workerUrl: fakeWorker });
  assert.equal((await decoder.decode(text("stale"))).samples, 0);
});

Deno.test("createOpusDecoder() reports a crashed worker and starts a new one", async () => {
  using decoder = createOpusDecoder({ clock: systemClock, workerUrl: fakeWorker });
  await assert.rejects(decoder.decode(text("throw")), {
    name: "AudioDecodeError",
    message: /^The decode worker failed: .*fake worker exploded/,
  });
  assert.equal((await decoder.decode(text("ok"))).sourceChannels, 1);
});

Deno.test("createOpusDecoder() cancels a running and a queued job on abort", async () => {
  using decoder = createOpusDecoder({ clock: systemClock, workerUrl: fakeWorker });
  const running = new AbortController();
  const queued = new AbortController();
  const a = decoder.decode(text("hang"), { signal: running.signal });
  const b = decoder.decode(text("ok"), { signal: queued.signal });
  queued.abort();
  await assert.rejects(b, { message: "Decoding was cancelled" });
  running.abort();
  await assert.rejects(a, { message: "Decoding was cancelled" });
  await assert.rejects(decoder.decode(text("ok"), { signal: running.signal }), {
    message: "Decoding was cancelled",
  });
});

Deno.test("createOpusDecoder() rejects pending jobs on close and refuses new ones", async () => {
  const decoder = createOpusDecoder({ clock: systemClock, workerUrl: fakeWorker });
  const a = decoder.decode(text("hang"));
  const b = decoder.decode(text("ok"));
  decoder.close();
  await assert.rejects(a, { message: "The audio decoder closed" });
  await assert.rejects(b, { message: "The audio decoder closed" });
  await assert.rejects(decoder.decode(voice), { message: "The audio decoder is closed" });
  decoder.close();
});

Deno.test("createOpusDecoder() can run an entry module that imports the worker, as a bundle does", async () => {
  using decoder = createOpusDecoder({
    clock: systemClock,
    workerUrl: new URL("entry_as_worker.ts", fixtures),
  });
  assert.equal((await decoder.decode(voice)).durationSeconds, 1.71);
});
