/**
 * The decoding job itself: Ogg Opus bytes → mono 16 kHz 16-bit WAV, using the
 * `ogg-opus-decoder` WASM build, which decodes straight to the 16 kHz speech
 * engines expect (Opus synthesises any of its rates natively, band-limited, so
 * nothing is resampled here); channels are mixed down by averaging. It runs
 * inside the decode worker (`decode_worker.ts`); callers on the main thread
 * use `createOpusDecoder`.
 * @module
 */

import { OggOpusDecoder } from "ogg-opus-decoder";
import { encodeWav } from "./wav.ts";
import { AudioDecodeError, type DecodedWav } from "./decoded.ts";

/** The sample rate transcribers are fed, and the rate Opus is decoded at. */
export const TARGET_SAMPLE_RATE = 16000;

/**
 * The decoder's options. Its type declarations omit `sampleRate`, which the
 * decoder reads (8, 12, 16, 24 or 48 kHz; its default is 48 kHz).
 */
type DecoderOptions = ConstructorParameters<typeof OggOpusDecoder>[0] & { sampleRate: number };

/**
 * Decodes a whole Ogg Opus file. Throws {@link AudioDecodeError} when the
 * bytes hold no decodable Opus audio (empty, truncated, another codec).
 */
export async function opusToWav(bytes: Uint8Array): Promise<DecodedWav> {
  const options: DecoderOptions = { sampleRate: TARGET_SAMPLE_RATE };
  const decoder = new OggOpusDecoder(options);
  try {
    await decoder.ready;
    let decoded;
    try {
      decoded = await decoder.decodeFile(bytes);
    } catch (err) {
      throw new AudioDecodeError(
        `Expected Ogg Opus audio but the decoder failed: ${(err as Error).message ?? err}`,
        { cause: err },
      );
    }
    if (decoded.samplesDecoded === 0 || decoded.channelData.length === 0) {
      throw new AudioDecodeError(
        `Expected Ogg Opus audio but decoded no samples from ${bytes.length} bytes`,
      );
    }
    const mono = downmix(decoded.channelData);
    return {
      wav: encodeWav(toPcm16(mono), { sampleRate: TARGET_SAMPLE_RATE }),
      samples: mono.length,
      durationSeconds: Math.round((mono.length / TARGET_SAMPLE_RATE) * 100) / 100,
      sourceChannels: decoded.channelData.length,
      damagedFrames: decoded.errors.length,
    };
  } finally {
    decoder.free();
  }
}

/**
 * Mixes channels down to one by averaging them.
 *
 * @example
 * ```ts
 * import { downmix } from "./opus_to_wav.ts";
 * const m = downmix([new Float32Array([1, 0]), new Float32Array([0, 0.5])]);
 * if (m[0] !== 0.5 || m[1] !== 0.25) throw new Error();
 * ```
 */
export function downmix(channels: readonly Float32Array[]): Float32Array {
  const first = channels[0];
  if (first === undefined) throw new RangeError("Expected at least one channel but found none");
  if (channels.length === 1) return first.slice();
  const out = new Float32Array(first.length);
  for (const ch of channels) {
    if (ch.length !== first.length) {
      throw new RangeError(
        `Expected channels of equal length ${first.length} but found ${ch.length}`,
      );
    }
    for (let i = 0; i < out.length; i++) out[i] = out[i]! + ch[i]!;
  }
  for (let i = 0; i < out.length; i++) out[i] = out[i]! / channels.length;
  return out;
}

/**
 * Converts float samples in [-1, 1] to 16-bit integers, rounding and clipping
 * anything outside the range.
 *
 * @example
 * ```ts
 * import { toPcm16 } from "./opus_to_wav.ts";
 * const p = toPcm16(new Float32Array([0, 1, -1, 2, 0.5]));
 * if (p.join() !== "0,32767,-32767,32767,16384") throw new Error(p.join());
 * ```
 */
export function toPcm16(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const s = Math.max(-1, Math.min(1, samples[i]!));
    out[i] = Math.round(s * 32767);
  }
  return out;
}
