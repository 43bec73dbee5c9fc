/**
 * Test code: reads back the WAV files `../wav.ts` writes (or any 16-bit PCM
 * WAV), so tests can check what a transcriber is handed. Pure; no I/O.
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

/**
 * Reads a WAV header: walks the RIFF chunks to `fmt ` and `data`, so extra
 * chunks (e.g. `LIST`) are skipped. Throws when the bytes are not a WAV file.
 *
 * @example Not a WAV file
 * ```ts
 * import { parseWav } from "./wav_reader.ts";
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
 * The 16-bit samples of a WAV file produced by `encodeWav` (or any
 * 16-bit PCM WAV), as an `Int16Array` copy.
 *
 * @example
 * ```ts
 * import { encodeWav } from "../wav.ts";
 * import { wavSamples } from "./wav_reader.ts";
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

function readTag(view: DataView, offset: number): string {
  if (offset + 4 > view.byteLength) return "";
  let s = "";
  for (let i = 0; i < 4; i++) s += String.fromCharCode(view.getUint8(offset + i));
  return s;
}
