/**
 * RIFF/WAVE for 16-bit PCM: the writer that produces the file a transcriber
 * reads. Pure; no I/O. (The reader that checks such a file is test code:
 * `testdata/wav_reader.ts`.)
 * @module
 */

/** Options of {@link encodeWav}. */
export interface EncodeWavOptions {
  sampleRate: number;
  /** Interleaved channel count of `samples`; default 1. */
  channels?: number;
}

const HEADER_BYTES = 44;

/**
 * Wraps interleaved 16-bit samples in a canonical 44-byte WAV header
 * (little-endian PCM).
 *
 * @example One mono sample
 * ```ts
 * import { encodeWav } from "./wav.ts";
 * const bytes = encodeWav(new Int16Array([1000]), { sampleRate: 16000 });
 * const view = new DataView(bytes.buffer);
 * if (bytes.length !== 46 || view.getUint32(24, true) !== 16000 || view.getUint32(40, true) !== 2) {
 *   throw new Error();
 * }
 * ```
 */
export function encodeWav(
  samples: Int16Array,
  options: EncodeWavOptions,
): Uint8Array<ArrayBuffer> {
  const channels = options.channels ?? 1;
  if (!Number.isInteger(channels) || channels < 1) {
    throw new RangeError(`Expected channels to be a positive integer but found ${channels}`);
  }
  if (!Number.isInteger(options.sampleRate) || options.sampleRate < 1) {
    throw new RangeError(
      `Expected sampleRate to be a positive integer but found ${options.sampleRate}`,
    );
  }
  const dataLength = samples.length * 2;
  const out = new Uint8Array(HEADER_BYTES + dataLength);
  const view = new DataView(out.buffer);
  writeTag(view, 0, "RIFF");
  view.setUint32(4, 36 + dataLength, true);
  writeTag(view, 8, "WAVE");
  writeTag(view, 12, "fmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, channels, true);
  view.setUint32(24, options.sampleRate, true);
  view.setUint32(28, options.sampleRate * channels * 2, true);
  view.setUint16(32, channels * 2, true);
  view.setUint16(34, 16, true);
  writeTag(view, 36, "data");
  view.setUint32(40, dataLength, true);
  for (let i = 0; i < samples.length; i++) {
    view.setInt16(HEADER_BYTES + i * 2, samples[i]!, true);
  }
  return out;
}

function writeTag(view: DataView, offset: number, tag: string): void {
  for (let i = 0; i < 4; i++) view.setUint8(offset + i, tag.charCodeAt(i));
}
