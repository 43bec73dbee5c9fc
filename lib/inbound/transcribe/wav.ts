/**
 * RIFF/WAVE for 16-bit PCM: the writer that produces the file a transcriber
 * reads, and a reader that checks such a file. Pure; no I/O.
 * @module
 */

/** What a WAV header says about its PCM payload. */
export interface WavInfo {
  /** 1 for integer PCM. */
  format: number;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  /** Byte offset of the first sample. */
  dataOffset: number;
  /** Byte length of the sample data. */
  dataLength: number;
}

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
 * import { encodeWav, parseWav } from "./wav.ts";
 * const bytes = encodeWav(new Int16Array([1000]), { sampleRate: 16000 });
 * const info = parseWav(bytes);
 * if (bytes.length !== 46 || info.sampleRate !== 16000 || info.dataLength !== 2) throw new Error();
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

/**
 * Reads a WAV header: walks the RIFF chunks to `fmt ` and `data`, so extra
 * chunks (e.g. `LIST`) are skipped. Throws when the bytes are not a WAV file.
 *
 * @example Not a WAV file
 * ```ts
 * import { parseWav } from "./wav.ts";
 * let message = "";
 * try {
 *   parseWav(new TextEncoder().encode("OggS"));
 * } catch (err) {
 *   message = (err as Error).message;
 * }
 * if (!message.startsWith("Expected a RIFF/WAVE header")) throw new Error(message);
 * ```
 */
export function parseWav(bytes: Uint8Array): WavInfo {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 12 || readTag(view, 0) !== "RIFF" || readTag(view, 8) !== "WAVE") {
    throw new SyntaxError(
      `Expected a RIFF/WAVE header but found ${JSON.stringify(readTag(view, 0))}`,
    );
  }
  let fmt: Omit<WavInfo, "dataOffset" | "dataLength"> | null = null;
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const id = readTag(view, offset);
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === "fmt ") {
      if (size < 16 || body + 16 > bytes.length) {
        throw new SyntaxError(`Expected a fmt chunk of at least 16 bytes but found ${size}`);
      }
      fmt = {
        format: view.getUint16(body, true),
        channels: view.getUint16(body + 2, true),
        sampleRate: view.getUint32(body + 4, true),
        bitsPerSample: view.getUint16(body + 14, true),
      };
    } else if (id === "data") {
      if (fmt === null) throw new SyntaxError("Expected a fmt chunk before the data chunk");
      if (body + size > bytes.length) {
        throw new SyntaxError(
          `Expected ${size} bytes of sample data but found ${bytes.length - body}`,
        );
      }
      return { ...fmt, dataOffset: body, dataLength: size };
    }
    offset = body + size + (size % 2);
  }
  throw new SyntaxError("Expected a data chunk but found none");
}

/**
 * The 16-bit samples of a WAV file produced by {@link encodeWav} (or any
 * 16-bit PCM WAV), as an `Int16Array` copy.
 *
 * @example
 * ```ts
 * import { encodeWav, wavSamples } from "./wav.ts";
 * const s = wavSamples(encodeWav(new Int16Array([-5, 7]), { sampleRate: 8000 }));
 * if (s[0] !== -5 || s[1] !== 7) throw new Error();
 * ```
 */
export function wavSamples(bytes: Uint8Array): Int16Array {
  const info = parseWav(bytes);
  if (info.format !== 1 || info.bitsPerSample !== 16) {
    throw new SyntaxError(
      `Expected 16-bit PCM but found format ${info.format} with ${info.bitsPerSample} bits`,
    );
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset + info.dataOffset, info.dataLength);
  const out = new Int16Array(Math.floor(info.dataLength / 2));
  for (let i = 0; i < out.length; i++) out[i] = view.getInt16(i * 2, true);
  return out;
}

function writeTag(view: DataView, offset: number, tag: string): void {
  for (let i = 0; i < 4; i++) view.setUint8(offset + i, tag.charCodeAt(i));
}

function readTag(view: DataView, offset: number): string {
  if (offset + 4 > view.byteLength) return "";
  let s = "";
  for (let i = 0; i < 4; i++) s += String.fromCharCode(view.getUint8(offset + i));
  return s;
}
