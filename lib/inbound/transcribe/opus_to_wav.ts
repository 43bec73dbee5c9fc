/**
 * The decoding job itself: Ogg Opus bytes → mono 16 kHz 16-bit WAV, using the
 * `ogg-opus-decoder` WASM build. It runs inside the decode worker
 * (`decode_worker.ts`); callers on the main thread use `createOpusDecoder`.
 * @module
 */

import { OggOpusDecoder } from "ogg-opus-decoder";
import { downmix, resampleTo16k, TARGET_SAMPLE_RATE, toPcm16 } from "./resample.ts";
import { encodeWav } from "./wav.ts";
import { AudioDecodeError, type DecodedWav } from "./decoded.ts";

/**
 * Decodes a whole Ogg Opus file. Throws {@link AudioDecodeError} when the
 * bytes hold no decodable Opus audio (empty, truncated, another codec).
 */
export async function opusToWav(bytes: Uint8Array): Promise<DecodedWav> {
  const decoder = new OggOpusDecoder();
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
    const mono = resampleTo16k(downmix(decoded.channelData), decoded.sampleRate);
    return {
      wav: encodeWav(toPcm16(mono), { sampleRate: TARGET_SAMPLE_RATE }),
      samples: mono.length,
      durationSeconds: Math.round((mono.length / TARGET_SAMPLE_RATE) * 100) / 100,
      sourceChannels: decoded.channelData.length,
      sourceSampleRate: decoded.sampleRate,
      damagedFrames: decoded.errors.length,
    };
  } finally {
    decoder.free();
  }
}
